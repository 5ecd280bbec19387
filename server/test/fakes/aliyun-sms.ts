// A local Aliyun Dysms endpoint speaking SendSms the way `@alicloud/dysmsapi20170525` sends it
// (research/INTEGRATIONS.md §4.1): RPC style `POST /?PhoneNumbers=…&SignName=…&TemplateCode=…&TemplateParam=…`
// with `x-acs-action: SendSms`, `x-acs-version: 2017-05-25` and an ACS3-HMAC-SHA256 `Authorization`.
// The signature is verified as Aliyun's gateway does (canonical request and string-to-sign reproduced
// from @alicloud/openapi-core's utils.getAuthorization), and answers are Aliyun's JSON shapes.
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type AliyunSmsFakeOptions = { accessKeyId: string; accessKeySecret: string; signName: string; templateCode: string }

export type SentSms = { phoneNumbers: string; signName: string; templateCode: string; templateParam: Record<string, unknown>; code: string | null; bizId: string }
export type RawRequest = { method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer }
export type AliyunError = { Code: string; Message: string }

export type AliyunSmsFake = {
  port: number
  /** For `AliyunSmsSender`'s `endpoint` (`127.0.0.1:PORT` makes it use http). */
  endpoint: string
  sent: SentSms[]
  /** Every request as received, accepted or not. */
  requests: RawRequest[]
  /** Answers the next SendSms (after a valid signature) with this business error, as HTTP 200. */
  failNext: (error: AliyunError) => void
  /** The account's secret changes on Aliyun's side (a rotated key): old signatures stop matching. */
  rotateSecret: (secret: string) => void
  close: () => Promise<void>
}

const ALGORITHM = 'ACS3-HMAC-SHA256'
const CLOCK_SKEW_MS = 15 * 60 * 1000
const sha256hex = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex')

/** RFC 3986 percent-encoding as the SDK applies it to query values. */
const percentEncode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

/** The canonical request of ACS3 signing, from what arrived on the wire. */
export function canonicalRequest(req: { method: string; url: string; headers: http.IncomingHttpHeaders }, signedHeaders: string[], payloadHash: string) {
  const u = new URL(req.url, 'http://fake')
  const canonicalUri = u.pathname || '/'
  const params = [...u.searchParams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const canonicalQuery = params.map(([k, v]) => `${k}=${percentEncode(v)}`).join('&')
  const canonicalHeaders = signedHeaders.map((h) => `${h}:${String(req.headers[h] ?? '').trim()}\n`).join('')
  return `${req.method}\n${canonicalUri}\n${canonicalQuery}\n${canonicalHeaders}\n${signedHeaders.join(';')}\n${payloadHash}`
}

export function signature(secret: string, canonical: string) {
  const stringToSign = `${ALGORITHM}\n${sha256hex(canonical)}`
  return crypto.createHmac('sha256', secret).update(stringToSign).digest('hex')
}

export async function startAliyunSmsFake(opts: AliyunSmsFakeOptions): Promise<AliyunSmsFake> {
  const sent: SentSms[] = []
  const requests: RawRequest[] = []
  const failures: AliyunError[] = []
  const nonces = new Set<string>()
  let secret = opts.accessKeySecret

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const raw: RawRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body }
      requests.push(raw)
      const requestId = crypto.randomUUID().toUpperCase()
      const answer = (status: number, json: Record<string, unknown>) => {
        res.writeHead(status, { 'content-type': 'application/json;charset=utf-8', 'x-acs-request-id': requestId })
        res.end(JSON.stringify({ RequestId: requestId, ...json }))
      }
      const fail = (status: number, Code: string, Message: string) =>
        answer(status, { Code, Message, HostId: req.headers.host ?? '', Recommend: `https://api.aliyun.com/troubleshoot?q=${Code}` })

      // Routing: one product, one action, one version.
      if (raw.method !== 'POST' && raw.method !== 'GET') return fail(405, 'UnsupportedHTTPMethod', 'This http method is not supported.')
      if (req.headers['x-acs-action'] !== 'SendSms') return fail(404, 'InvalidAction.NotFound', 'Specified api is not found, please check your url and method.')
      if (req.headers['x-acs-version'] !== '2017-05-25') return fail(400, 'InvalidVersion', 'Specified parameter Version is not valid.')

      // Authentication: ACS3-HMAC-SHA256.
      const auth = /^ACS3-HMAC-SHA256 Credential=([^,]+),SignedHeaders=([^,]+),Signature=([0-9a-f]{64})$/.exec(req.headers.authorization ?? '')
      if (!auth) return fail(400, 'IncompleteSignature', 'The request signature does not conform to Aliyun standards.')
      const [, keyId, signedList, given] = auth as unknown as [string, string, string, string]
      if (keyId !== opts.accessKeyId) return fail(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.')
      const signedHeaders = signedList.split(';')
      const mustSign = ['host', ...Object.keys(req.headers).filter((h) => h.startsWith('x-acs-'))]
      if (mustSign.some((h) => !signedHeaders.includes(h)) || [...signedHeaders].sort().join(';') !== signedList) {
        return fail(400, 'IncompleteSignature', 'The request signature does not conform to Aliyun standards: every x-acs-* header and host must be signed.')
      }
      const date = Date.parse(String(req.headers['x-acs-date'] ?? ''))
      if (!Number.isFinite(date) || Math.abs(Date.now() - date) > CLOCK_SKEW_MS) {
        return fail(400, 'InvalidTimeStamp.Expired', 'Specified time stamp or date value is expired.')
      }
      const nonce = String(req.headers['x-acs-signature-nonce'] ?? '')
      if (!nonce) return fail(400, 'MissingSignatureNonce', 'SignatureNonce is mandatory for this action.')
      const payloadHash = sha256hex(body)
      if (req.headers['x-acs-content-sha256'] !== payloadHash) {
        return fail(400, 'IncompleteSignature', 'The x-acs-content-sha256 header does not match the request body.')
      }
      const expected = signature(secret, canonicalRequest(raw, signedHeaders, payloadHash))
      if (!crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(given))) {
        return fail(400, 'SignatureDoesNotMatch', 'Specified signature is not matched with our calculation.')
      }
      if (nonces.has(nonce)) return fail(400, 'SignatureNonceUsed', 'Specified signature nonce was used already.')
      nonces.add(nonce)

      // The action: RPC parameters arrive in the query (or, for other SDKs, a form body).
      const params = new URL(raw.url, 'http://fake').searchParams
      if (String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
        for (const [k, v] of new URLSearchParams(body.toString('utf8'))) params.set(k, v)
      }
      for (const name of ['PhoneNumbers', 'SignName', 'TemplateCode']) {
        if (!params.get(name)) return fail(400, `Missing${name}`, `${name} is mandatory for this action.`)
      }
      const failure = failures.shift()
      if (failure) return answer(200, { ...failure })
      const phoneNumbers = params.get('PhoneNumbers')!
      if (!phoneNumbers.split(',').every((p) => /^(\+?86)?1[3-9]\d{9}$/.test(p))) return answer(200, { Code: 'isv.MOBILE_NUMBER_ILLEGAL', Message: '非法手机号' })
      if (params.get('SignName') !== opts.signName) return answer(200, { Code: 'isv.SMS_SIGNATURE_ILLEGAL', Message: '该账号下找不到对应签名' })
      if (params.get('TemplateCode') !== opts.templateCode) return answer(200, { Code: 'isv.SMS_TEMPLATE_ILLEGAL', Message: '该账号下找不到对应模板' })
      let templateParam: Record<string, unknown> = {}
      try {
        const text = params.get('TemplateParam')
        if (text) templateParam = JSON.parse(text) as Record<string, unknown>
      } catch {
        return answer(200, { Code: 'isv.INVALID_JSON_PARAM', Message: 'JSON参数不合法，只接受字符串值' })
      }
      const bizId = `${Date.now()}^0`
      const code = typeof templateParam.code === 'string' ? templateParam.code : null
      sent.push({ phoneNumbers, signName: params.get('SignName')!, templateCode: params.get('TemplateCode')!, templateParam, code, bizId })
      return answer(200, { Code: 'OK', Message: 'OK', BizId: bizId })
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  return {
    port,
    endpoint: `127.0.0.1:${port}`,
    sent,
    requests,
    failNext: (error) => {
      failures.push(error)
    },
    rotateSecret: (next) => {
      secret = next
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
