// The console's streaming renderer must never put bytes of its own inside a multi-byte character
// (scripts/patch-react-dom.mjs): a page whose Chinese text crosses React's 2 KB write buffer is sent as
// exactly the UTF-8 of its text, in the production and the development builds of react-dom/server.
import { createRequire } from 'node:module'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { createElement } from 'react'
import type { renderToPipeableStream as RenderToPipeableStream } from 'react-dom/server'
import { describe, expect, it } from 'vitest'

const require = createRequire(import.meta.url)
// The builds by file: the package's exports pick one by NODE_ENV, and production runs the other one.
const cjs = path.join(path.dirname(require.resolve('react-dom/package.json')), 'cjs')

/** ~2 KB of small elements, a shift of `shift` characters, then the Chinese text in an attribute and a text node. */
function page(shift: number, text: string) {
  const filler = Array.from({ length: 250 }, (_, i) => createElement('b', { key: i }, 'x'))
  return createElement('div', null, ...filler, createElement('i', { key: 'shift' }, 'y'.repeat(shift)), createElement('p', { key: 'p', 'aria-label': text }, text))
}

async function render(build: string, shift: number, text: string): Promise<Buffer> {
  const { renderToPipeableStream } = require(path.join(cjs, `react-dom-server.node.${build}.js`)) as { renderToPipeableStream: typeof RenderToPipeableStream }
  return new Promise((resolve, reject) => {
    const out = new PassThrough()
    const chunks: Buffer[] = []
    out.on('data', (c: Buffer) => chunks.push(c))
    out.on('end', () => resolve(Buffer.concat(chunks)))
    const stream = renderToPipeableStream(page(shift, text), { onAllReady: () => stream.pipe(out), onError: reject })
  })
}

describe('server-rendered UTF-8', () => {
  for (const build of ['production.min', 'development']) {
    it(`${build}: Chinese text across the write buffer's end comes out whole, with no NUL bytes`, async () => {
      // Shift the text through the 2,048-byte buffer's end, so its 3-byte characters land on every offset.
      const text = '渠道收入：专业渠道'
      for (let shift = 1; shift < 40; shift++) {
        const html = await render(build, shift, text)
        expect(html.includes(0), `shift ${shift}`).toBe(false)
        expect(html.toString('utf8')).toContain(`aria-label="${text}">${text}</p>`)
      }
    })
  }
})
