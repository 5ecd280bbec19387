import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local stand-in for the web and the netdisks (issue 25): pages by path — set one with `page()`, or use
 * the built-ins: `/status/<code>`, `/redirect/<n>` (n hops, then 200), `/hang` (never answers), `/to?url=`
 * (a redirect anywhere). Counts requests and the peak of concurrent ones per Host header.
 */
export class LinkFixture {
  readonly server: http.Server
  requests = 0
  readonly byHost = new Map<string, number>()
  readonly peakByHost = new Map<string, number>()
  private active = new Map<string, number>()
  private pages = new Map<string, { status: number; body: string; delayMs?: number }>()
  /** Delay of every answer (the per-host rate tests). */
  delayMs = 0

  private constructor(readonly host: string) {
    this.server = http.createServer((req, res) => this.answer(req, res))
  }

  static async start(host = '127.0.0.1'): Promise<LinkFixture> {
    const f = new LinkFixture(host)
    await new Promise<void>((resolve) => f.server.listen(0, host, resolve))
    return f
  }

  get port() {
    return (this.server.address() as AddressInfo).port
  }

  /** A URL on this server under any host name (the tests' resolver points the name here). */
  url(path: string, hostname = this.host) {
    return `http://${hostname}:${this.port}${path}`
  }

  page(path: string, body: string, status = 200) {
    this.pages.set(path, { status, body })
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse) {
    this.requests++
    const host = (req.headers.host ?? '').replace(/:\d+$/, '')
    this.byHost.set(host, (this.byHost.get(host) ?? 0) + 1)
    const now = (this.active.get(host) ?? 0) + 1
    this.active.set(host, now)
    this.peakByHost.set(host, Math.max(this.peakByHost.get(host) ?? 0, now))
    res.on('close', () => this.active.set(host, (this.active.get(host) ?? 1) - 1))
    const url = new URL(req.url ?? '/', 'http://x')
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs))
    const page = this.pages.get(url.pathname)
    if (page) return res.writeHead(page.status, { 'content-type': 'text/html; charset=utf-8' }).end(page.body)
    let m = url.pathname.match(/^\/status\/(\d+)$/)
    if (m) return res.writeHead(Number(m[1])).end(`status ${m[1]}`)
    m = url.pathname.match(/^\/redirect\/(\d+)$/)
    if (m) {
      const n = Number(m[1])
      return n === 0 ? res.writeHead(200).end('arrived') : res.writeHead(302, { location: `/redirect/${n - 1}` }).end()
    }
    if (url.pathname === '/to') return res.writeHead(302, { location: url.searchParams.get('url') ?? '/' }).end()
    if (url.pathname === '/hang') return // never answers
    if (url.pathname === '/big') {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.write('<html>' + 'x'.repeat(512 * 1024))
      return res.end('链接不存在</html>')
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html><body>a page</body></html>')
  }

  stop() {
    this.server.closeAllConnections()
    return new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
