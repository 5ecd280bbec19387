import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import fp from 'fastify-plugin'
import { jsonSchemaTransform } from 'fastify-type-provider-zod'

/** The OpenAPI document, generated from the contract's request and response schemas, at /api/docs. */
export default fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      info: { title: 'PayShare API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  })
  await app.register(swaggerUi, { routePrefix: '/api/docs' })
}, { name: 'swagger' })
