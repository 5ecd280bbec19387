import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from './config.ts'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payshare-config-'))
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))
const load = (env: Partial<NodeJS.ProcessEnv>) => loadConfig({ DATA_DIR: dataDir, ...env } as NodeJS.ProcessEnv)

describe('PAYMENTS_SANDBOX', () => {
  it('is off in production unless opted into explicitly', () => {
    expect(load({ NODE_ENV: 'production' }).paymentsSandbox).toBe(false)
    expect(load({ NODE_ENV: 'production', PAYMENTS_SANDBOX: 'false' }).paymentsSandbox).toBe(false)
    expect(load({ NODE_ENV: 'production', PAYMENTS_SANDBOX: 'true' }).paymentsSandbox).toBe(true)
  })
  it('is on by default in development and tests, and can be turned off', () => {
    expect(load({}).paymentsSandbox).toBe(true)
    expect(load({ NODE_ENV: 'development' }).paymentsSandbox).toBe(true)
    expect(load({ NODE_ENV: 'test' }).paymentsSandbox).toBe(true)
    expect(load({ NODE_ENV: 'development', PAYMENTS_SANDBOX: 'false' }).paymentsSandbox).toBe(false)
  })
  it('refuses anything but true or false', () => {
    for (const v of ['yes', '1', 'TRUE', '']) expect(() => load({ NODE_ENV: 'production', PAYMENTS_SANDBOX: v }), v).toThrow(/PAYMENTS_SANDBOX/)
  })
})
