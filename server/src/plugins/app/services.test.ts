import { describe, expect, it } from 'vitest'
import { codeDeliveryWarning } from './services.ts'

const sms = { provider: 'aliyun' as const, accessKeyId: 'k', accessKeySecret: 's', endpoint: 'e', signName: 'n', templateCode: 't' }

describe('codeDeliveryWarning (issue 13: the start says when codes are not delivered)', () => {
  it('a production start without any provider is an error naming both and the outbox', () => {
    const w = codeDeliveryWarning({ env: 'production', smtpUrl: undefined, sms: undefined })
    expect(w?.level).toBe('error')
    expect(w?.message).toContain('email (SMTP_URL) or SMS (SMS_PROVIDER)')
    expect(w?.message).toContain('NOT delivered')
    expect(w?.message).toContain('System → Code outbox')
  })
  it('a local start without providers, or one missing provider, is a warning', () => {
    expect(codeDeliveryWarning({ env: 'development', smtpUrl: undefined, sms: undefined })?.level).toBe('warn')
    const onlyMail = codeDeliveryWarning({ env: 'production', smtpUrl: 'smtp://mail.example', sms: undefined })
    expect(onlyMail).toMatchObject({ level: 'warn' })
    expect(onlyMail?.message).toContain('no SMS (SMS_PROVIDER) provider')
  })
  it('says nothing when both are configured', () => {
    expect(codeDeliveryWarning({ env: 'production', smtpUrl: 'smtp://mail.example', sms })).toBeNull()
  })
})
