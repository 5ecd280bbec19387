import type { FastifyBaseLogger } from 'fastify'
import nodemailer, { type Transporter } from 'nodemailer'
import type { Database } from '../db/client.ts'
import { outboxMessages } from '../db/schema/index.ts'

export type CodeMessage = { channel: 'email' | 'sms'; to: string; code: string; purpose: 'register' | 'forgot' | 'bind' }

/** Delivers verification codes for one channel. */
export interface CodeSender {
  readonly kind: 'outbox' | 'smtp' | 'aliyun'
  send(message: CodeMessage): Promise<void>
}

/**
 * Used while no real provider is configured: the code is written to the API log and to the dev outbox
 * (`GET /api/dev/outbox`, the admin console page), so a local user can finish sign-up.
 */
export class OutboxSender implements CodeSender {
  readonly kind = 'outbox' as const
  constructor(
    private db: Database,
    private log: FastifyBaseLogger,
  ) {}
  async send(m: CodeMessage) {
    await this.db.insert(outboxMessages).values({ channel: m.channel, to: m.to, code: m.code, purpose: m.purpose })
    this.log.info({ outbox: { channel: m.channel, to: m.to, purpose: m.purpose, code: m.code } }, 'verification code (outbox)')
  }
}

const SUBJECTS: Record<CodeMessage['purpose'], string> = {
  register: 'PayShare 注册验证码 / sign-up code',
  forgot: 'PayShare 重置密码验证码 / password reset code',
  bind: 'PayShare 绑定验证码 / verification code',
}

/** Real mail over SMTP_URL (nodemailer). */
export class SmtpSender implements CodeSender {
  readonly kind = 'smtp' as const
  private transport: Transporter
  constructor(
    smtpUrl: string,
    private from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl)
  }
  async send(m: CodeMessage) {
    await this.transport.sendMail({
      from: this.from,
      to: m.to,
      subject: SUBJECTS[m.purpose],
      text: `您的验证码是 ${m.code}，10 分钟内有效。\nYour verification code is ${m.code}. It is valid for 10 minutes.`,
    })
  }
}
