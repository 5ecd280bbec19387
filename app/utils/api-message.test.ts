import i18next from 'i18next'
import { beforeAll, describe, expect, it } from 'vitest'
import { i18nConfig, resources } from '#app/i18n.ts'
import { apiMessage, exceptionText } from './api-message.ts'

const en = i18next.createInstance()
const zh = i18next.createInstance()
beforeAll(async () => {
  await en.init({ ...i18nConfig, resources, lng: 'en-US' })
  await zh.init({ ...i18nConfig, resources, lng: 'zh-CN' })
})

describe('apiMessage (SPEC §8: the server msg, or Error)', () => {
  it('translates a catalog key', () => {
    expect(apiMessage(en.t, 'auth.userNameTaken')).toBe('This user name is already taken.')
    expect(apiMessage(zh.t, 'auth.userNameTaken')).toBe('该用户名已被使用。')
  })
  it('shows a msg the console does not know as it is, not Error', () => {
    expect(apiMessage(en.t, 'Profile edits are paused')).toBe('Profile edits are paused')
    expect(apiMessage(zh.t, 'shares.somethingNew')).toBe('shares.somethingNew')
    expect(apiMessage(en.t, 'Maintenance: back at 10:00.')).toBe('Maintenance: back at 10:00.')
  })
  it("says 'Error' only without a msg", () => {
    expect(apiMessage(en.t, '')).toBe('Error')
    expect(apiMessage(en.t, undefined)).toBe('Error')
    expect(apiMessage(zh.t, null)).toBe('错误')
  })
})

describe('exceptionText (SPEC §8 page messages)', () => {
  it('a failed load with 500–503 reads Internal server error, with the server msg when it says more', () => {
    expect(exceptionText(en.t, 500, 'errors.error')).toEqual({ text: 'Internal server error' })
    expect(exceptionText(en.t, 502, '')).toEqual({ text: 'Internal server error' })
    expect(exceptionText(zh.t, 500, 'errors.internal')).toEqual({ text: zh.t('pages.serverError') })
    expect(exceptionText(en.t, 503, 'errors.requestError')).toEqual({ text: 'Internal server error', detail: 'Request Error' })
    expect(exceptionText(en.t, 500, 'Database is down')).toEqual({ text: 'Internal server error', detail: 'Database is down' })
  })
  it('403 and 404 have their texts; other answers show the msg', () => {
    expect(exceptionText(en.t, 403, 'x')).toEqual({ text: 'Access to this resource on the server is denied.' })
    expect(exceptionText(en.t, 404)).toEqual({ text: 'Whoops, this page is gone.' })
    expect(exceptionText(en.t, 400, 'Shares are resting today')).toEqual({ text: 'Shares are resting today' })
    expect(exceptionText(en.t, 409, 'errors.conflict')).toEqual({ text: 'This conflicts with the current state. Refresh and try again.' })
    expect(exceptionText(en.t, 400)).toEqual({ text: 'Error' })
  })
})
