import helmet from '@fastify/helmet'
import fp from 'fastify-plugin'

/**
 * Security headers. A JSON API: CSP is the console's business; headers only old browsers read are left
 * out (each header is bytes on every answer of the hottest route).
 */
export default fp(async (app) => {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    originAgentCluster: false,
  })
}, { name: 'helmet' })
