// postinstall: fix React 18.3's streaming renderer (react-dom/server, Node builds), which writes its WHOLE
// 2 KB buffer when a multi-byte character does not fit at the end of it — the unused tail bytes go out as
// NUL bytes in the middle of the page. A Chinese name that lands on a buffer boundary showed as "渠��道"
// (the bytes E6 B8 A0 00 00 E9 81 93), on the page and in aria-labels (docs/decisions/060-react-dom-
// stream-patch.md). React 19 writes only the filled part; so does this patch. Idempotent; a react-dom
// without the expected code is left alone (and said so).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const FIXES = {
  'react-dom-server.node.production.min.js': ['d<b.length&&(t(a,k),k=new Uint8Array(2048)', 'd<b.length&&(t(a,k.subarray(0,l)),k=new Uint8Array(2048)'],
  'react-dom-server.node.development.js': [
    'if (read < stringChunk.length) {\n    writeToDestination(destination, currentView);',
    'if (read < stringChunk.length) {\n    writeToDestination(destination, currentView.subarray(0, writtenBytes));',
  ],
}

for (const [file, [broken, fixed]] of Object.entries(FIXES)) {
  const target = path.join(root, 'node_modules', 'react-dom', 'cjs', file)
  if (!fs.existsSync(target)) continue
  const source = fs.readFileSync(target, 'utf8')
  if (source.includes(fixed)) continue
  if (source.split(broken).length !== 2) {
    console.warn(`patch-react-dom: ${file} does not hold the expected code once; left as it is`)
    continue
  }
  fs.writeFileSync(target, source.replace(broken, fixed))
}
