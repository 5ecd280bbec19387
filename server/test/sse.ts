import http from 'node:http'

/** Reads server-sent events (with their `id:`) from a listening app; `waitFor` one that matches. */
export function readEvents(url: string, headers: Record<string, string> = {}) {
  const events: { id: string | null; type: string; data: unknown }[] = []
  let buffer = ''
  let res: http.IncomingMessage | undefined
  const ready = new Promise<number>((resolve, reject) => {
    http
      .get(url, { headers }, (r) => {
        res = r
        r.setEncoding('utf8')
        r.on('data', (chunk: string) => {
          buffer += chunk
          let i
          while ((i = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, i)
            buffer = buffer.slice(i + 2)
            const type = /^event: (.*)$/m.exec(block)?.[1]
            const data = /^data: (.*)$/m.exec(block)?.[1]
            const id = /^id: (.*)$/m.exec(block)?.[1] ?? null
            if (type && data) events.push({ id, type, data: JSON.parse(data) })
          }
        })
        resolve(r.statusCode ?? 0)
      })
      .on('error', reject)
  })
  return {
    ready,
    events,
    async waitFor(pred: (e: { type: string; data: unknown }) => boolean, ms = 3000) {
      const until = Date.now() + ms
      while (Date.now() < until) {
        const hit = events.find(pred)
        if (hit) return hit
        await new Promise((r) => setTimeout(r, 20))
      }
      throw new Error(`no such event within ${ms} ms; got ${JSON.stringify(events)}`)
    },
    close: () => res?.destroy(),
  }
}
