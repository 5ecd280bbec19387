import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

export type SpawnedApi = { base: string; child: ChildProcess; dataDir: string; output: () => string; exited: Promise<number | null> }

/** A port nobody listens on right now (the test runs on PGlite and PostgreSQL side by side). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

/**
 * Starts the API as its own process (`server/src/main.ts` under tsx), as an operator does: on a PGlite
 * data dir (a new temporary one unless given) or on `DATABASE_URL` in `env`, and waits until it answers.
 */
export async function spawnApi(env: Record<string, string> = {}, dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payshare-api-'))): Promise<SpawnedApi> {
  const port = await freePort()
  const base0 = { ...process.env }
  // The test runner's own database and Redis are not this API's unless `env` says so.
  delete base0.DATABASE_URL
  delete base0.REDIS_URL
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: { ...base0, NODE_ENV: 'test', API_PORT: String(port), API_HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'false', ADMIN_PASSWORD: 'Admin@2026', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()))
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const base = `http://127.0.0.1:${port}`
  const until = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited (${child.exitCode}):\n${out}`)
    try {
      if ((await fetch(`${base}/api/health`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      child.kill('SIGKILL')
      throw new Error(`the API did not answer within 60 s:\n${out}`)
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  return { base, child, dataDir, output: () => out, exited }
}
