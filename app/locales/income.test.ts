// The income catalog (issue 7): both languages say everything (DESIGN §5: identical keys), and every
// msg key the income API sends has a text.
import { describe, expect, it } from 'vitest'
import en from './en-US/income.json'
import zh from './zh-CN/income.json'

const keys = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`]))

describe('income catalog', () => {
  it('zh-CN and en-US have the same keys, none empty', () => {
    expect(keys(zh).sort()).toEqual(keys(en).sort())
    for (const catalog of [zh, en]) for (const k of keys(catalog)) expect(k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], catalog), k).not.toBe('')
  })

  it("has the text of the API's msg keys", () => {
    // contract/income.ts: the days query's range message.
    expect(zh.daysRange).toBeTruthy()
    expect(en.daysRange).toBeTruthy()
  })
})
