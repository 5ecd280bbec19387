// A sale's settle state as the income order lists show it: "Unsettled" until its settle time, then
// "Settled", with the time under it. (The e2e server settles at once, so a browser never sees a fresh
// sale unsettled; the API proves the settle time with a moved clock, income.test.ts.)
import { MantineProvider } from '@mantine/core'
import i18next from 'i18next'
import { renderToStaticMarkup } from 'react-dom/server'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { describe, expect, it } from 'vitest'
import type { Order } from '#contract/orders.ts'
import { i18nConfig, resources } from '#app/i18n.ts'
import { SettleState } from './income.tsx'

const i18n = i18next.createInstance()
await i18n.use(initReactI18next).init({ ...i18nConfig, resources, lng: 'en-US' })

const render = (order: Partial<Order>) =>
  renderToStaticMarkup(
    <MantineProvider>
      <I18nextProvider i18n={i18n}>
        <SettleState order={{ payment_status: 'Completed', settle_at: '2026-11-24T02:00:00.000Z', settled: false, ...order } as Order} />
      </I18nextProvider>
    </MantineProvider>,
  )

describe('SettleState', () => {
  it('an unsettled sale says so, with when it settles (Asia/Shanghai)', () => {
    const html = render({ settled: false })
    expect(html).toContain('>Unsettled<')
    expect(html).toContain('title="Settles 2026-11-24 10:00')
  })

  it('a settled one says Settled; an order that is not a completed sale shows nothing', () => {
    expect(render({ settled: true })).toContain('>Settled<')
    expect(render({ payment_status: 'Pending' })).not.toMatch(/ettled/)
    expect(render({ settle_at: null })).not.toMatch(/ettled/)
  })
})
