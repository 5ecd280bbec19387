// A second server process beside the run's product (another console of this run's build), started from
// the repository root and awaited until its port accepts connections.
import { type ChildProcess, spawn } from 'node:child_process'
import net from 'node:net'
import path from 'node:path'

export const ROOT = path.resolve(import.meta.dirname, '../..')

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end()
      resolve(true)
    })
    socket.on('error', () => resolve(false))
  })

/** Starts `command args` with `env` added, and waits (30 s at most) until `port` accepts connections. */
export async function startServer(command: string, args: string[], env: Record<string, string>, port: number): Promise<ChildProcess> {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'ignore' })
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${path.basename(command)} exited (${child.exitCode}) before listening on ${port}`)
    if (await accepts(port)) return child
    await new Promise((r) => setTimeout(r, 200))
  }
  child.kill()
  throw new Error(`${path.basename(command)} did not listen on ${port} within 30 s`)
}
