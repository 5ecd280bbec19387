import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import fp from 'fastify-plugin'
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod'

/**
 * The OpenAPI document, generated from the contract's request and response schemas, at /api/docs.
 * OpenAPI 3.1 (JSON Schema 2020-12): a nullable field is `type: [..., 'null']` and a nullable enum lists
 * `null` — OpenAPI 3.0's `nullable: true` beside an enum without `null` made strict validators refuse
 * real answers (issue 21). http/openapi.test.ts validates the document and every GET answer against it.
 */
export default fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'PayShare API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
    // The schemas the routes refer to by $ref (components.schemas), so the document resolves.
    transformObject: jsonSchemaTransformObject,
  })
  await app.register(swaggerUi, { routePrefix: '/api/docs' })
}, { name: 'swagger' })
