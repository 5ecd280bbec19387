import formbody from '@fastify/formbody'
import fp from 'fastify-plugin'

/** `application/x-www-form-urlencoded` bodies: the sandbox checkout page and Alipay's notify post forms. */
export default fp(async (app) => {
  await app.register(formbody)
}, { name: 'formbody' })
