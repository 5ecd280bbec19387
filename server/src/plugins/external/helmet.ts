import type { IncomingMessage, ServerResponse } from 'node:http'
import fp from 'fastify-plugin'
import helmet, { type HelmetOptions } from 'helmet'

/**
 * Security headers. A JSON API: CSP is the console's business; headers only old browsers read are left
 * out (each header is bytes on every answer of the hottest route).
 */
const OPTIONS: HelmetOptions = {
  contentSecurityPolicy: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  originAgentCluster: false,
}

/**
 * The headers helmet writes with OPTIONS, computed once: none of them depends on the request. (Decision
 * 150: @fastify/helmet built helmet's middleware chain and ran it on every request — 6.5% of the API's
 * time under load on GET /api/share.)
 */
export function securityHeaders(options: HelmetOptions = OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {}
  const res = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  }
  let done = false
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err
    done = true
  })
  if (!done) throw new Error('helmet did not finish synchronously')
  return headers
}

export default fp(
  async (app) => {
    const headers = securityHeaders()
    // Every answer, errors and 404s included, as @fastify/helmet's global hook did.
    app.addHook('onRequest', (_request, reply, next) => {
      reply.headers(headers)
      next()
    })
  },
  { name: 'helmet' },
)
