// app/mantine.css lists the @mantine/core styles of the components the console renders (decision 160).
// A component used for the first time, or a Mantine upgrade, changes what scripts/mantine-css.mjs would
// write: this fails until the file is written again, so no component is ever drawn without its styles.
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { MANTINE_CSS, mantineCss } from '../../scripts/mantine-css.mjs'

describe('the console’s Mantine stylesheet', () => {
  const written = fs.readFileSync(MANTINE_CSS, 'utf8')
  const imports = written.split('\n').filter((l) => l.startsWith('@import'))

  it('is what scripts/mantine-css.mjs writes (run `node scripts/mantine-css.mjs` when this fails)', () => {
    expect(written).toBe(mantineCss())
  })

  it('holds the global styles first, then the styles of what the console uses — not every component', () => {
    expect(imports.slice(0, 3)).toEqual([
      "@import '@mantine/core/styles/baseline.css';",
      "@import '@mantine/core/styles/default-css-variables.css';",
      "@import '@mantine/core/styles/global.css';",
    ])
    for (const used of ['Button', 'UnstyledButton', 'Input', 'Modal', 'ModalBase', 'Overlay', 'AppShell', 'Table', 'Notification', 'NavLink'])
      expect(imports).toContain(`@import '@mantine/core/styles/${used}.css';`)
    // Never rendered by the console: left out.
    for (const unused of ['Pagination', 'Stepper', 'Timeline', 'Slider', 'Rating', 'ColorPicker'])
      expect(imports).not.toContain(`@import '@mantine/core/styles/${unused}.css';`)
  })

  it('keeps a dependency before what builds on it, as Mantine orders its own stylesheet', () => {
    const at = (name: string) => imports.indexOf(`@import '@mantine/core/styles/${name}.css';`)
    expect(at('UnstyledButton')).toBeLessThan(at('Button'))
    expect(at('Input')).toBeLessThan(at('PasswordInput'))
    expect(at('ModalBase')).toBeLessThan(at('Modal'))
  })
})
