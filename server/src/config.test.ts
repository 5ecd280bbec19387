import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { issueAlipayCertificates } from '../test/fakes/alipay-certs.ts'
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

describe('TRUST_PROXY (decision 106)', () => {
  it('is loopback by default; true, false, a number of hops or a list of addresses', () => {
    expect(load({}).trustProxy).toBe('loopback')
    expect(load({ TRUST_PROXY: 'true' }).trustProxy).toBe(true)
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false)
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2)
    expect(load({ TRUST_PROXY: '10.0.0.0/8, loopback' }).trustProxy).toBe('10.0.0.0/8, loopback')
  })
})

describe('Alipay certificate mode (payouts)', () => {
  const app = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  const gateway = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  const certs = issueAlipayCertificates(app, gateway)
  const privateKey = app.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()
  const base = { ALIPAY_APP_ID: '2021000149600001', ALIPAY_PRIVATE_KEY: privateKey }

  it('takes the three certificates as PEM text (literal \\n allowed) or as file paths; Alipay’s key comes from its certificate', () => {
    const appFile = path.join(dataDir, 'appCertPublicKey.crt')
    fs.writeFileSync(appFile, certs.appCert)
    const config = load({ ...base, ALIPAY_APP_CERT: appFile, ALIPAY_PUBLIC_CERT: certs.alipayPublicCert.replace(/\n/g, '\\n'), ALIPAY_ROOT_CERT: certs.alipayRootCert })
    expect(config.alipay?.certs).toEqual(certs)
    expect(crypto.createPublicKey(config.alipay!.alipayPublicKey).export({ type: 'spki', format: 'der' })).toEqual(gateway.publicKey.export({ type: 'spki', format: 'der' }))
  })

  it('needs all three certificates, the app id and key, and real certificates', () => {
    expect(() => load({ ...base, ALIPAY_APP_CERT: certs.appCert })).toThrow(/ALIPAY_APP_CERT, ALIPAY_PUBLIC_CERT, ALIPAY_ROOT_CERT/)
    const all = { ALIPAY_APP_CERT: certs.appCert, ALIPAY_PUBLIC_CERT: certs.alipayPublicCert, ALIPAY_ROOT_CERT: certs.alipayRootCert }
    expect(() => load(all)).toThrow(/Alipay needs ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY/)
    expect(() => load({ ...base, ...all, ALIPAY_ROOT_CERT: '/nonexistent/alipayRootCert.crt' })).toThrow(/ALIPAY_ROOT_CERT is neither/)
    expect(() => load({ ...base, ...all, ALIPAY_PUBLIC_CERT: '-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----' })).toThrow(/ALIPAY_PUBLIC_CERT is not a PEM certificate/)
  })

  it('without certificates, public-key mode still needs ALIPAY_PUBLIC_KEY and has no certificates', () => {
    expect(() => load(base)).toThrow(/ALIPAY_PUBLIC_KEY/)
    expect(load({ ...base, ALIPAY_PUBLIC_KEY: gateway.publicKey.export({ type: 'spki', format: 'pem' }).toString() }).alipay?.certs).toBeUndefined()
  })
})

describe('QQ / WeChat login (issue 12)', () => {
  it('OAUTH_SANDBOX is off in production unless opted into, on elsewhere', () => {
    expect(load({ NODE_ENV: 'production' }).oauth.sandbox).toBe(false)
    expect(load({ NODE_ENV: 'production', OAUTH_SANDBOX: 'true' }).oauth.sandbox).toBe(true)
    expect(load({}).oauth.sandbox).toBe(true)
    expect(load({ OAUTH_SANDBOX: 'false' }).oauth.sandbox).toBe(false)
    expect(() => load({ OAUTH_SANDBOX: 'yes' })).toThrow(/OAUTH_SANDBOX/)
  })
  it('each provider needs both of its variables; the callback base defaults to WEB_URL', () => {
    expect(() => load({ QQ_APP_ID: '1' })).toThrow(/QQ login needs QQ_APP_ID, QQ_APP_KEY/)
    expect(() => load({ WECHAT_LOGIN_APP_SECRET: 's' })).toThrow(/WeChat login needs/)
    const c = load({ QQ_APP_ID: '1', QQ_APP_KEY: 'k', WEB_URL: 'https://pay.example.com/' })
    expect(c.oauth.qq).toMatchObject({ appId: '1', appKey: 'k', unionid: false })
    expect(c.oauth.wechat).toBeUndefined()
    expect(c.oauth.callbackBaseUrl).toBe('https://pay.example.com')
    expect(load({ OAUTH_CALLBACK_BASE_URL: 'https://login.example.com/' }).oauth.callbackBaseUrl).toBe('https://login.example.com')
  })
})
