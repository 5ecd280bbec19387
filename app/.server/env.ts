import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

/** Unset and empty are the same for every setting (an empty `SESSION_SECRET=` in a .env file). */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional())

const envSchema = z.object({
  API_PORT: optional(z.coerce.number().int().min(1).max(65535)),
  API_URL: optional(z.url({ protocol: /^https?$/ })),
  DATA_DIR: optional(z.string()),
  SESSION_SECRET: optional(z.string()),
  /** `true`/`false` forces Secure cookies; unset: Secure when the request came over https. */
  COOKIE_SECURE: optional(z.enum(['true', 'false'])),
  /** The external online customer-service page of the menu (SPEC §2); unset hides the entry. */
  SUPPORT_URL: optional(z.url({ protocol: /^https?$/ })),
})

/** The folder holding package.json, wherever the console runs from (app/ in dev, build/server once built). */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir)
    if (up === dir) return process.cwd()
    dir = up
  }
  return dir
}

/**
 * The cookie secret shared with the API's data directory (`secrets.json`, which the API writes on its
 * first start). The console only creates the file when it starts first, and never overwrites it.
 */
function storedSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secrets.json')
  const read = () => (JSON.parse(fs.readFileSync(file, 'utf8')) as { sessionSecret?: unknown }).sessionSecret
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true })
    try {
      fs.writeFileSync(file, JSON.stringify({ sessionSecret: crypto.randomBytes(32).toString('base64url') }, null, 2), { mode: 0o600, flag: 'wx' })
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
    }
  }
  const secret = read()
  if (typeof secret !== 'string' || !secret) throw new Error(`Invalid ${file}: no sessionSecret`)
  return secret
}

/** Console settings, read once at start-up (README: Configuration); a bad value stops it with one line. */
function load(source: NodeJS.ProcessEnv) {
  const parsed = envSchema.safeParse(source)
  if (!parsed.success) {
    throw new Error(`Invalid environment: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
  }
  const e = parsed.data
  return {
    apiUrl: (e.API_URL ?? `http://127.0.0.1:${e.API_PORT ?? 4000}`).replace(/\/$/, ''),
    sessionSecret: e.SESSION_SECRET ?? storedSessionSecret(path.resolve(projectRoot(), e.DATA_DIR ?? './data')),
    cookieSecure: e.COOKIE_SECURE,
    supportUrl: e.SUPPORT_URL ?? null,
  }
}

export const env = load(process.env)
