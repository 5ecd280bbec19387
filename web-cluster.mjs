// One console process per core (issue 24, decision 141): the first process forks WEB_CONCURRENCY
// workers (default: the machine's cores) that share the port and each serve the whole console — the
// console keeps no state of its own between requests (sessions are signed cookies, the rest is the
// API's). With WEB_CONCURRENCY=1 the process serves by itself, as before.
import cluster from 'node:cluster'
import os from 'node:os'
import { AggregatorRegistry } from 'prom-client'

/** A worker's question to the first process for everyone's metrics, and its answer (decision 137). */
const METRICS_ASK = 'payshare:metrics?'
const METRICS_ANSWER = 'payshare:metrics'

export function workerCount() {
  const asked = Number(process.env.WEB_CONCURRENCY)
  return Number.isInteger(asked) && asked > 0 ? asked : os.availableParallelism()
}

/**
 * In the first process with more than one worker to run: forks them, passes SIGTERM/SIGINT on to each
 * and exits once all have stopped (each closes its server first); a worker that dies on its own is
 * replaced. Never settles there — web-server.mjs awaits it before serving. Elsewhere it returns at once.
 */
export function runAsClusterPrimary() {
  const count = workerCount()
  if (!cluster.isPrimary || count <= 1) return Promise.resolve()
  let stopping = false
  // A scrape reaches whichever worker accepts it: that worker asks here, and the answer is every
  // worker's metrics added up (prom-client's aggregation: counters and histograms summed).
  const aggregator = new AggregatorRegistry()
  cluster.on('message', (worker, message) => {
    if (message?.type !== METRICS_ASK) return
    aggregator.clusterMetrics().then(
      (text) => worker.isConnected() && worker.send({ type: METRICS_ANSWER, id: message.id, text }),
      (err) => worker.isConnected() && worker.send({ type: METRICS_ANSWER, id: message.id, error: String(err?.message ?? err) }),
    )
  })
  const fork = () => cluster.fork()
  for (let i = 0; i < count; i++) fork()
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping) {
      console.error(`console worker ${worker.process.pid} exited (${signal ?? code}); starting another`)
      fork()
    } else if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0)
  })
  // Every stop signal is taken (a second one — a process group's and its parent's — must not kill the
  // first process before its workers have closed); the workers are asked once.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (stopping) return
      stopping = true
      const workers = Object.values(cluster.workers ?? {})
      if (!workers.length) process.exit(0)
      for (const w of workers) w?.process.kill('SIGTERM')
    })
  }
  return new Promise(() => {})
}

/** Whether this process prints the start line: the only process, or the first worker. */
export const firstServer = () => !cluster.isWorker || cluster.worker?.id === 1

/**
 * The metrics of the whole console, as a function to call per scrape: with workers, every worker's
 * `registry` added up (the first process asks each of them; this worker answers with `registry` from
 * now on); alone, this process's own.
 */
export function consoleMetrics(registry) {
  if (!cluster.isWorker) return () => registry.metrics()
  new AggregatorRegistry()
  AggregatorRegistry.setRegistries([registry])
  let asked = 0
  const waiting = new Map()
  process.on('message', (message) => {
    if (message?.type !== METRICS_ANSWER) return
    waiting.get(message.id)?.(message)
    waiting.delete(message.id)
  })
  return () => {
    const id = ++asked
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id)
        reject(new Error('no metrics from the other workers within 6 s'))
      }, 6000)
      waiting.set(id, (message) => {
        clearTimeout(timer)
        if (message.error) reject(new Error(message.error))
        else resolve(message.text)
      })
      process.send?.({ type: METRICS_ASK, id })
    })
  }
}
