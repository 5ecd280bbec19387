import http from 'node:http'
import https from 'node:https'
import type { LinkResult } from '#contract/links.ts'
import { GuardRefusal, pinAddress, pinnedLookup, type Resolver, systemResolver } from './guard.ts'
import { deadMarker } from './providers.ts'

/** How one link is fetched (issue 25): at most 5 redirects, 10 s in all, the first 256 KB of the body. */
export type CheckOptions = {
  resolver?: Resolver
  allowPrivate: boolean
  timeoutMs?: number
  maxRedirects?: number
  maxBodyBytes?: number
  /** Tests only: addresses the guard treats as public (a local fixture standing in for a public host). */
  trustedAddresses?: readonly string[]
}

export type CheckOutcome = { result: LinkResult; reason: string | null; httpStatus: number | null; finalUrl: string; durationMs: number }

const DEFAULTS = { timeoutMs: 10_000, maxRedirects: 5, maxBodyBytes: 256 * 1024 }
const USER_AGENT = 'Mozilla/5.0 (compatible; PayShareLinkCheck/1.0)'

type Hop = { status: number; location: string | null; body: string }

/** One request to one pinned address: the status, the redirect target and the start of the body. */
function fetchOnce(url: URL, pinned: { address: string; family: 4 | 6 }, signal: AbortSignal, maxBody: number): Promise<Hop> {
  const lib = url.protocol === 'https:' ? https : http
  return new Promise<Hop>((resolve, reject) => {
    const req = lib.request(
      url,
      {
        method: 'GET',
        lookup: pinnedLookup(pinned),
        signal,
        agent: false,
        headers: { 'user-agent': USER_AGENT, accept: 'text/html,application/json;q=0.9,*/*;q=0.8', 'accept-encoding': 'identity', 'accept-language': 'zh-CN,zh;q=0.9' },
      },
      (res) => {
        const status = res.statusCode ?? 0
        const location = typeof res.headers.location === 'string' ? res.headers.location : null
        if (status >= 300 && status < 400 && location) {
          res.destroy()
          resolve({ status, location, body: '' })
          return
        }
        const chunks: Buffer[] = []
        let size = 0
        const done = () => resolve({ status, location, body: Buffer.concat(chunks).toString('utf8') })
        res.on('data', (chunk: Buffer) => {
          size += chunk.length
          chunks.push(chunk)
          // The size cap: the markers are near the top; the rest is never read.
          if (size >= maxBody) {
            res.destroy()
            done()
          }
        })
        res.on('end', done)
        res.on('error', (e) => (size >= maxBody ? done() : reject(e)))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

const errorCode = (e: unknown) => (e && typeof e === 'object' && 'code' in e ? String((e as { code: unknown }).code) : '')

/**
 * Checks a link: each hop's host is resolved once, refused unless public (the guard), and connected to
 * at exactly that address; redirects are followed up to the limit, each through the guard again. ok:
 * a 2xx page without a dead marker; dead: 404/410, a provider's dead page, a name that does not exist;
 * unknown: anything else (timeouts, 5xx, refused connections, too many redirects, a refused address).
 */
export async function checkLink(link: string, opts: CheckOptions): Promise<CheckOutcome> {
  const o = { ...DEFAULTS, ...opts }
  const resolver = opts.resolver ?? systemResolver
  const started = Date.now()
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), o.timeoutMs)
  let url: URL
  let status: number | null = null
  const outcome = (result: LinkResult, reason: string | null): CheckOutcome => ({ result, reason, httpStatus: status, finalUrl: url?.toString() ?? link, durationMs: Date.now() - started })
  try {
    try {
      url = new URL(link)
    } catch {
      return outcome('dead', 'bad_url')
    }
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return outcome('dead', 'bad_url')
      if (url.username || url.password) return outcome('unknown', 'credentials_in_url')
      const pinned = await Promise.race([
        pinAddress(url.hostname, resolver, opts.allowPrivate, opts.trustedAddresses),
        new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(Object.assign(new Error('timeout'), { code: 'ABORT_ERR' })), { once: true })),
      ])
      const res = await fetchOnce(url, pinned, controller.signal, o.maxBodyBytes)
      status = res.status
      if (res.location && res.status >= 300 && res.status < 400) {
        if (hop >= o.maxRedirects) return outcome('unknown', 'too_many_redirects')
        url = new URL(res.location, url)
        continue
      }
      const marker = deadMarker(url.hostname, res.status, res.body)
      if (marker) return outcome('dead', marker)
      if (res.status === 404 || res.status === 410) return outcome('dead', `http_${res.status}`)
      if (res.status >= 200 && res.status < 300) return outcome('ok', null)
      return outcome('unknown', `http_${res.status}`)
    }
  } catch (e) {
    if (e instanceof GuardRefusal) return outcome('unknown', `refused:${e.reason}`)
    const code = errorCode(e)
    if (controller.signal.aborted || code === 'ABORT_ERR') return outcome('unknown', 'timeout')
    // The name does not exist: the link's domain is gone.
    if (code === 'ENOTFOUND') return outcome('dead', 'dns_not_found')
    return outcome('unknown', code ? `network:${code}` : 'network')
  } finally {
    clearTimeout(timer)
  }
}
