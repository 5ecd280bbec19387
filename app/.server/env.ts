import { loadSecrets, projectRoot } from '#server/config.ts'
import path from 'node:path'

/** Console settings, read once at start-up (README: Configuration). */
function load() {
  const apiPort = Number(process.env.API_PORT ?? 4000)
  const dataDir = path.resolve(projectRoot(), process.env.DATA_DIR ?? './data')
  return {
    apiUrl: (process.env.API_URL ?? `http://127.0.0.1:${apiPort}`).replace(/\/$/, ''),
    sessionSecret: process.env.SESSION_SECRET || loadSecrets(dataDir).sessionSecret,
    /** `true`/`false` forces Secure cookies; unset: Secure when the request came over https. */
    cookieSecure: process.env.COOKIE_SECURE,
    production: process.env.NODE_ENV === 'production',
  }
}

export const env = load()
