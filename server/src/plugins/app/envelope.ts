import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify'
import fp from 'fastify-plugin'
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod'
import type { FieldErrors } from '#contract/envelope.ts'
import { AppError } from '../../errors.ts'

declare module 'fastify' {
  interface FastifyReply {
    /** Answers `{code, msg, data}` with the HTTP status mirroring `code`. */
    ok<T>(data: T, msg?: string, code?: 200 | 201): FastifyReply
  }
}

/** The envelope, the error mapping (never a bare 500 for bad input) and the 404 answer. */
export default fp(async function envelope(app: FastifyInstance) {
  app.decorateReply('ok', function (this: FastifyReply, data: unknown, msg = 'ok', code: 200 | 201 = 200) {
    return this.code(code).send({ code, msg, data })
  })

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ code: 404, msg: 'errors.notFound', data: null })
  })

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fieldErrors: FieldErrors = {}
      for (const issue of error.validation) {
        const path = (issue.instancePath || '').replace(/^\//, '').replace(/\//g, '.') || '_'
        const message = issue.message && /^[a-z]+\.[A-Za-z.]+$/.test(issue.message) ? issue.message : 'validation.invalid'
        ;(fieldErrors[path] ??= []).push(message)
      }
      return reply.code(422).send({ code: 422, msg: 'validation.failed', data: { fieldErrors } })
    }
    if (error instanceof AppError) {
      if (error.statusCode === 429 && error.data && typeof error.data === 'object' && 'retryAfter' in error.data) {
        reply.header('retry-after', String((error.data as { retryAfter: number }).retryAfter))
      }
      return reply.code(error.statusCode).send({ code: error.statusCode, msg: error.msg, data: error.data })
    }
    if (invalidTextForDatabase(error)) {
      // A NUL byte (or text the database encoding cannot hold) in a payload is bad input, not a 500.
      return reply.code(400).send({ code: 400, msg: 'errors.badRequest', data: null })
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema')
      return reply.code(500).send({ code: 500, msg: 'errors.internal', data: null })
    }
    const status = error.statusCode ?? 500
    if (status === 429) return reply.code(429).send({ code: 429, msg: 'errors.rateLimited', data: null })
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type, body too large: a clear client error, not a 500.
      const msg = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'errors.tooLarge' : 'errors.badRequest'
      return reply.code(status === 415 || status === 413 ? status : 400).send({ code: status === 415 || status === 413 ? status : 400, msg, data: null })
    }
    request.log.error({ err: error }, 'unhandled error')
    return reply.code(500).send({ code: 500, msg: 'errors.internal', data: null })
  })
})

/** PostgreSQL 22021 character_not_in_repertoire / 22P05 untranslatable_character, from either driver. */
function invalidTextForDatabase(e: unknown): boolean {
  let err = e as { code?: unknown; cause?: unknown } | undefined
  for (let i = 0; err && i < 3; i++) {
    if (err.code === '22021' || err.code === '22P05') return true
    err = err.cause as typeof err
  }
  return false
}
