import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

/** The repository root: where package.json lives, found upwards from this file (src or dist). */
export function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir)
    if (up === dir) return process.cwd()
    dir = up
  }
  return dir
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  API_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  API_HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  ADMIN_PASSWORD: z.string().min(6).optional(),
  SEED_DEMO: z.enum(['true', 'false']).default('true'),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('PayShare <no-reply@payshare.local>'),
  SMS_PROVIDER: z.enum(['aliyun']).optional(),
  ALIYUN_ACCESS_KEY_ID: z.string().optional(),
  ALIYUN_ACCESS_KEY_SECRET: z.string().optional(),
  ALIYUN_SMS_ENDPOINT: z.string().default('dysmsapi.aliyuncs.com'),
  ALIYUN_SMS_SIGN_NAME: z.string().optional(),
  ALIYUN_SMS_TEMPLATE_CODE: z.string().optional(),
  REDIS_URL: z.string().url().optional(),
  // Public addresses: the console (payment return URLs) and the API (payment notify URLs).
  WEB_URL: z.string().url().optional(),
  API_PUBLIC_URL: z.string().url().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Platform fee on a sale while the seller has no fee channel (DESIGN §3 Income), in basis points.
  DEFAULT_FEE_BP: z.coerce.number().int().min(0).max(10000).default(500),
  // Sale income is unsettled this long after payment, then withdrawable (SPEC §5's 24-hour window).
  SETTLEMENT_DELAY_HOURS: z.coerce.number().min(0).max(24 * 365).default(24),
  // Withdrawals (DESIGN §3): the minimum amount, the service fee rate (basis points) and its minimum, in yuan.
  WITHDRAWAL_MIN_YUAN: z.coerce.number().min(0.01).default(10),
  WITHDRAWAL_FEE_BP: z.coerce.number().int().min(0).max(10000).default(100),
  WITHDRAWAL_FEE_MIN_YUAN: z.coerce.number().min(0).default(0.1),
  // "Ban seller and refund buyers" (issue 9): refunds the seller's unrevealed sales paid in the last N days.
  FRAUD_REFUND_WINDOW_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // Dead links (issue 25): a buyer who paid within N days may ask a refund; it is made after M hours unfixed.
  DEAD_LINK_REFUND_DAYS: z.coerce.number().min(0).max(3650).default(7),
  DEAD_LINK_FIX_HOURS: z.coerce.number().min(0).max(24 * 365).default(48),
  // The link checker may reach loopback and private addresses: tests and local try-outs only.
  LINK_CHECK_ALLOW_PRIVATE: z.enum(['0', '1', 'true', 'false']).default('0'),
  LINK_CHECK_HOST_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(20),
  LINK_CHECK_HOST_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(25),
  LINK_CHECK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  // The built-in sandbox gateway takes the payments of a method with no real gateway configured.
  // Unset: on in development and tests, off with NODE_ENV=production — there it is opted into explicitly.
  PAYMENTS_SANDBOX: z.enum(['true', 'false']).optional(),
  ALIPAY_APP_ID: z.string().optional(),
  ALIPAY_PRIVATE_KEY: z.string().optional(),
  ALIPAY_PUBLIC_KEY: z.string().optional(),
  ALIPAY_SELLER_ID: z.string().optional(),
  ALIPAY_GATEWAY: z.string().url().default('https://openapi.alipay.com/gateway.do'),
  // Certificate mode (公钥证书): needed for payouts (fund.trans.uni.transfer). PEM text or a file path each.
  ALIPAY_APP_CERT: z.string().optional(),
  ALIPAY_PUBLIC_CERT: z.string().optional(),
  ALIPAY_ROOT_CERT: z.string().optional(),
  WECHAT_APP_ID: z.string().optional(),
  WECHAT_MCH_ID: z.string().optional(),
  WECHAT_MCH_SERIAL: z.string().optional(),
  WECHAT_MCH_PRIVATE_KEY: z.string().optional(),
  WECHAT_API_V3_KEY: z.string().optional(),
  WECHAT_PLATFORM_PUBLIC_KEY: z.string().optional(),
  WECHAT_PLATFORM_SERIAL: z.string().optional(),
  WECHAT_BASE_URL: z.string().url().default('https://api.mch.weixin.qq.com'),
  // QQ / WeChat website login (issue 12). Without credentials the sandbox consent page stands in while
  // OAUTH_SANDBOX is on (unset: on except with NODE_ENV=production, like PAYMENTS_SANDBOX).
  QQ_APP_ID: z.string().optional(),
  QQ_APP_KEY: z.string().optional(),
  QQ_UNIONID: z.enum(['true', 'false']).default('false'),
  WECHAT_LOGIN_APP_ID: z.string().optional(),
  WECHAT_LOGIN_APP_SECRET: z.string().optional(),
  OAUTH_SANDBOX: z.enum(['true', 'false']).optional(),
  // Where QQ / WeChat send the browser back (the console's public address; registered with each provider).
  OAUTH_CALLBACK_BASE_URL: z.string().url().optional(),
  // Whose X-Forwarded-For to believe: the console forwards the visitor's address (one, decision 106).
  // 'loopback' (default) trusts a console on the same machine; a number, that many hops (a console
  // behind a load balancer: 2); a list of addresses/subnets; 'true' any hop — only where no client can
  // reach the API but through the consoles.
  TRUST_PROXY: z.string().default('loopback'),
  // One log line per request and response (off by default: it costs a large share of a fast route).
  LOG_REQUESTS: z.enum(['true', 'false']).default('false'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // `/metrics` for whoever sends it as a bearer token; unset, for direct loopback callers only (decision 137).
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN: at least 16 characters').optional(),
})

/** PEM values may be given with literal `\n`; keys are PKCS#1 or PKCS#8 PEM (or bare base64). */
export type AlipayConfig = {
  appId: string
  privateKey: string
  /** Alipay's public key; in certificate mode the one in `certs.alipayPublicCert`. */
  alipayPublicKey: string
  sellerId?: string
  gateway: string
  /** Certificate mode (公钥证书), PEM text: every call carries the certificates' serial numbers; payouts need it. */
  certs?: AlipayCertificates
}
export type AlipayCertificates = { appCert: string; alipayPublicCert: string; alipayRootCert: string }
export type WechatConfig = {
  appId: string
  mchId: string
  mchSerial: string
  mchPrivateKey: string
  apiV3Key: string
  /** WeChat Pay public key (public-key mode) and its id `PUB_KEY_ID_…`, or a platform certificate serial. */
  platformPublicKey: string
  platformSerial: string
  baseUrl: string
}

/** QQ / WeChat login (issue 12): each provider when its credentials are set; the sandbox switch; the callback base. */
export type OAuthConfig = {
  qq?: { appId: string; appKey: string; baseUrl: string; unionid: boolean }
  wechat?: { appId: string; appSecret: string; openBaseUrl: string; apiBaseUrl: string }
  sandbox: boolean
  callbackBaseUrl: string
}

export type Secrets = { sessionSecret: string; contentKey: string; codePepper: string }

export type Config = {
  env: z.infer<typeof envSchema>['NODE_ENV']
  port: number
  host: string
  databaseUrl?: string
  dataDir: string
  adminPassword?: string
  seedDemo: boolean
  smtpUrl?: string
  mailFrom: string
  sms?: { provider: 'aliyun'; accessKeyId: string; accessKeySecret: string; endpoint: string; signName: string; templateCode: string }
  redisUrl?: string
  webUrl: string
  apiPublicUrl: string
  defaultFeeBp: number
  settlementDelayMs: number
  withdrawal: { minFen: number; feeBp: number; feeMinFen: number }
  /** How far back "ban seller and refund buyers" refunds unrevealed sales, in days (issue 9). */
  fraudRefundWindowDays: number
  /** Dead links (issue 25); unset → the defaults of modules/linkcheck (`linkCheckSettings`). */
  linkCheck?: {
    allowPrivate: boolean
    refundDays: number
    fixHours: number
    hostConcurrency: number
    hostIntervalMs: number
    timeoutMs: number
    /** Check a link when it is published, edited or reported (off in the API tests of other areas). */
    checkOnSave: boolean
  }
  paymentsSandbox: boolean
  alipay?: AlipayConfig
  wechat?: WechatConfig
  oauth: OAuthConfig
  /** Whose X-Forwarded-For to believe (Fastify's `trustProxy`): nobody, any hop, that many hops, or these addresses. */
  trustProxy: boolean | number | string
  logLevel: string
  logRequests: boolean
  /** Bearer token for `/metrics`; unset: loopback callers only (decision 137). */
  metricsToken?: string
  secrets: Secrets
}

/**
 * Secrets shared by the API and the console (same DATA_DIR): generated on first start, kept in
 * DATA_DIR/secrets.json with mode 0600. SESSION_SECRET / CONTENT_KEY from the environment win.
 */
export function loadSecrets(dataDir: string, env: NodeJS.ProcessEnv = process.env): Secrets {
  fs.mkdirSync(dataDir, { recursive: true })
  const file = path.join(dataDir, 'secrets.json')
  let stored: Partial<Secrets> = {}
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Secrets>
  const gen = () => crypto.randomBytes(32).toString('base64url')
  const secrets: Secrets = {
    sessionSecret: stored.sessionSecret ?? gen(),
    contentKey: stored.contentKey ?? crypto.randomBytes(32).toString('base64'),
    codePepper: stored.codePepper ?? gen(),
  }
  if (JSON.stringify(stored) !== JSON.stringify(secrets)) {
    fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 })
  }
  return {
    sessionSecret: env.SESSION_SECRET || secrets.sessionSecret,
    contentKey: env.CONTENT_KEY || secrets.contentKey,
    codePepper: env.CODE_PEPPER || secrets.codePepper,
  }
}

/**
 * The three certificates of Alipay's certificate mode, each given as PEM text (literal `\n` allowed) or
 * as the path of the .crt file Alipay's key tool wrote.
 */
function alipayCertificates(env: NodeJS.ProcessEnv): AlipayCertificates {
  const read = (key: string) => {
    const value = env[key]!.replace(/\\n/g, '\n')
    if (value.includes('-----BEGIN CERTIFICATE-----')) return value
    try {
      return fs.readFileSync(path.resolve(projectRoot(), value), 'utf8')
    } catch {
      throw new Error(`Invalid environment: ${key} is neither a PEM certificate nor a readable file (${value})`)
    }
  }
  const certs = { appCert: read('ALIPAY_APP_CERT'), alipayPublicCert: read('ALIPAY_PUBLIC_CERT'), alipayRootCert: read('ALIPAY_ROOT_CERT') }
  for (const [key, text] of [['ALIPAY_APP_CERT', certs.appCert], ['ALIPAY_PUBLIC_CERT', certs.alipayPublicCert], ['ALIPAY_ROOT_CERT', certs.alipayRootCert]] as const) {
    certificatePublicKey(text, key)
  }
  return certs
}

/** The public key (SPKI PEM) of the first certificate in a PEM text; a clear error when it is none. */
function certificatePublicKey(text: string, key: string): string {
  try {
    return new crypto.X509Certificate(text).publicKey.export({ type: 'spki', format: 'pem' }).toString()
  } catch {
    throw new Error(`Invalid environment: ${key} is not a PEM certificate`)
  }
}

/** Parses the environment; a bad value stops the process with one clear line (STYLE: Habits). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid environment: ${lines.join('; ')}`)
  }
  const e = parsed.data
  const dataDir = path.resolve(projectRoot(), e.DATA_DIR)
  let sms: Config['sms']
  if (e.SMS_PROVIDER === 'aliyun') {
    const missing = ['ALIYUN_ACCESS_KEY_ID', 'ALIYUN_ACCESS_KEY_SECRET', 'ALIYUN_SMS_SIGN_NAME', 'ALIYUN_SMS_TEMPLATE_CODE'].filter(
      (k) => !env[k],
    )
    if (missing.length) throw new Error(`Invalid environment: SMS_PROVIDER=aliyun needs ${missing.join(', ')}`)
    sms = {
      provider: 'aliyun',
      accessKeyId: e.ALIYUN_ACCESS_KEY_ID!,
      accessKeySecret: e.ALIYUN_ACCESS_KEY_SECRET!,
      endpoint: e.ALIYUN_SMS_ENDPOINT,
      signName: e.ALIYUN_SMS_SIGN_NAME!,
      templateCode: e.ALIYUN_SMS_TEMPLATE_CODE!,
    }
  }
  const pem = (v: string) => v.replace(/\\n/g, '\n')
  const all = (...keys: string[]) => keys.every((k) => env[k])
  const some = (...keys: string[]) => keys.some((k) => env[k])
  const certKeys = ['ALIPAY_APP_CERT', 'ALIPAY_PUBLIC_CERT', 'ALIPAY_ROOT_CERT']
  if (some(...certKeys) && !all(...certKeys)) throw new Error(`Invalid environment: Alipay certificate mode needs ${certKeys.join(', ')}`)
  const certs = all(...certKeys) ? alipayCertificates(env) : undefined
  // In certificate mode Alipay's public key is the one in its certificate.
  const alipayKeys = certs ? ['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY'] : ['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY']
  if ((certs || some(...alipayKeys)) && !all(...alipayKeys)) throw new Error(`Invalid environment: Alipay needs ${alipayKeys.join(', ')}`)
  const wechatKeys = ['WECHAT_APP_ID', 'WECHAT_MCH_ID', 'WECHAT_MCH_SERIAL', 'WECHAT_MCH_PRIVATE_KEY', 'WECHAT_API_V3_KEY', 'WECHAT_PLATFORM_PUBLIC_KEY', 'WECHAT_PLATFORM_SERIAL']
  if (some(...wechatKeys) && !all(...wechatKeys)) throw new Error(`Invalid environment: WeChat Pay needs ${wechatKeys.join(', ')}`)
  // WeChat Pay only calls https notify URLs (research/INTEGRATIONS.md §2.1).
  if (all(...wechatKeys) && e.API_PUBLIC_URL?.startsWith('https://') !== true) {
    throw new Error('Invalid environment: WeChat Pay needs API_PUBLIC_URL, the public https address of the API')
  }
  for (const keys of [['QQ_APP_ID', 'QQ_APP_KEY'], ['WECHAT_LOGIN_APP_ID', 'WECHAT_LOGIN_APP_SECRET']]) {
    if (some(...keys) && !all(...keys)) throw new Error(`Invalid environment: ${keys[0]!.startsWith('QQ') ? 'QQ' : 'WeChat'} login needs ${keys.join(', ')}`)
  }
  const webUrl = (e.WEB_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '')
  return {
    env: e.NODE_ENV,
    port: e.API_PORT,
    host: e.API_HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    adminPassword: e.ADMIN_PASSWORD,
    seedDemo: e.SEED_DEMO === 'true',
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    sms,
    redisUrl: e.REDIS_URL,
    webUrl,
    apiPublicUrl: (e.API_PUBLIC_URL ?? `http://127.0.0.1:${e.API_PORT}`).replace(/\/$/, ''),
    defaultFeeBp: e.DEFAULT_FEE_BP,
    settlementDelayMs: Math.round(e.SETTLEMENT_DELAY_HOURS * 3600 * 1000),
    withdrawal: { minFen: Math.round(e.WITHDRAWAL_MIN_YUAN * 100), feeBp: e.WITHDRAWAL_FEE_BP, feeMinFen: Math.round(e.WITHDRAWAL_FEE_MIN_YUAN * 100) },
    fraudRefundWindowDays: e.FRAUD_REFUND_WINDOW_DAYS,
    linkCheck: {
      allowPrivate: e.LINK_CHECK_ALLOW_PRIVATE === '1' || e.LINK_CHECK_ALLOW_PRIVATE === 'true',
      refundDays: e.DEAD_LINK_REFUND_DAYS,
      fixHours: e.DEAD_LINK_FIX_HOURS,
      hostConcurrency: e.LINK_CHECK_HOST_CONCURRENCY,
      hostIntervalMs: e.LINK_CHECK_HOST_INTERVAL_MS,
      timeoutMs: e.LINK_CHECK_TIMEOUT_MS,
      checkOnSave: true,
    },
    paymentsSandbox: e.PAYMENTS_SANDBOX === undefined ? e.NODE_ENV !== 'production' : e.PAYMENTS_SANDBOX === 'true',
    alipay: all(...alipayKeys)
      ? {
          appId: e.ALIPAY_APP_ID!,
          privateKey: pem(e.ALIPAY_PRIVATE_KEY!),
          alipayPublicKey: certs ? certificatePublicKey(certs.alipayPublicCert, 'ALIPAY_PUBLIC_CERT') : pem(e.ALIPAY_PUBLIC_KEY!),
          sellerId: e.ALIPAY_SELLER_ID,
          gateway: e.ALIPAY_GATEWAY,
          ...(certs ? { certs } : {}),
        }
      : undefined,
    wechat: all(...wechatKeys)
      ? {
          appId: e.WECHAT_APP_ID!,
          mchId: e.WECHAT_MCH_ID!,
          mchSerial: e.WECHAT_MCH_SERIAL!,
          mchPrivateKey: pem(e.WECHAT_MCH_PRIVATE_KEY!),
          apiV3Key: e.WECHAT_API_V3_KEY!,
          platformPublicKey: pem(e.WECHAT_PLATFORM_PUBLIC_KEY!),
          platformSerial: e.WECHAT_PLATFORM_SERIAL!,
          baseUrl: e.WECHAT_BASE_URL,
        }
      : undefined,
    oauth: {
      qq: all('QQ_APP_ID', 'QQ_APP_KEY') ? { appId: e.QQ_APP_ID!, appKey: e.QQ_APP_KEY!, baseUrl: 'https://graph.qq.com', unionid: e.QQ_UNIONID === 'true' } : undefined,
      wechat: all('WECHAT_LOGIN_APP_ID', 'WECHAT_LOGIN_APP_SECRET')
        ? { appId: e.WECHAT_LOGIN_APP_ID!, appSecret: e.WECHAT_LOGIN_APP_SECRET!, openBaseUrl: 'https://open.weixin.qq.com', apiBaseUrl: 'https://api.weixin.qq.com' }
        : undefined,
      sandbox: e.OAUTH_SANDBOX === undefined ? e.NODE_ENV !== 'production' : e.OAUTH_SANDBOX === 'true',
      callbackBaseUrl: (e.OAUTH_CALLBACK_BASE_URL ?? webUrl).replace(/\/$/, ''),
    },
    trustProxy: e.TRUST_PROXY === 'true' ? true : e.TRUST_PROXY === 'false' ? false : /^\d+$/.test(e.TRUST_PROXY) ? Number(e.TRUST_PROXY) : e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    logRequests: e.LOG_REQUESTS === 'true',
    metricsToken: e.METRICS_TOKEN || undefined,
    secrets: loadSecrets(dataDir, env),
  }
}
