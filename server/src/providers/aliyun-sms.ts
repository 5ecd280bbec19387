import DysmsModule, { SendSmsRequest } from '@alicloud/dysmsapi20170525'
import * as OpenApi from '@alicloud/openapi-client'
import type { CodeMessage, CodeSender } from './codes.ts'

// The package is CommonJS: under ESM its class sits one `default` deeper.
const Dysms = ((DysmsModule as unknown as { default?: typeof DysmsModule }).default ?? DysmsModule) as typeof DysmsModule

export type AliyunSmsConfig = {
  accessKeyId: string
  accessKeySecret: string
  /** `dysmsapi.aliyuncs.com` in production; `127.0.0.1:PORT` for a local fake (with protocol http). */
  endpoint: string
  signName: string
  templateCode: string
}

export class SmsSendError extends Error {
  constructor(
    readonly providerCode: string,
    message: string,
  ) {
    super(message)
  }
}

/** Aliyun Dysms SendSms with template param `{code}` (research/INTEGRATIONS.md §4.1). */
export class AliyunSmsSender implements CodeSender {
  readonly kind = 'aliyun' as const
  private client: InstanceType<typeof Dysms>
  constructor(config: AliyunSmsConfig) {
    const local = /^(127\.|localhost)/.test(config.endpoint)
    this.client = new Dysms(
      new OpenApi.Config({
        accessKeyId: config.accessKeyId,
        accessKeySecret: config.accessKeySecret,
        endpoint: config.endpoint,
        protocol: local ? 'http' : 'https',
      }),
    )
    this.signName = config.signName
    this.templateCode = config.templateCode
  }
  private signName: string
  private templateCode: string
  async send(m: CodeMessage) {
    const res = await this.client.sendSms(
      new SendSmsRequest({
        phoneNumbers: m.to,
        signName: this.signName,
        templateCode: this.templateCode,
        templateParam: JSON.stringify({ code: m.code }),
      }),
    )
    const body = res.body
    // Errors also arrive as HTTP 200 with Code ≠ OK (e.g. isv.BUSINESS_LIMIT_CONTROL).
    if (body?.code !== 'OK') throw new SmsSendError(body?.code ?? 'UNKNOWN', body?.message ?? 'SMS send failed')
  }
}
