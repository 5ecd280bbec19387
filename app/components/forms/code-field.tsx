import type { FieldMetadata } from '@conform-to/react'
import { Alert, Box, Button, Group } from '@mantine/core'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { TextField, useIsPending } from './fields.tsx'

/**
 * "Send code": a submit button with its own intent, so it works without JavaScript; with it, the button
 * counts down the 60 s resend wait (the API refuses earlier sends either way).
 */
export function SendCodeButton({ intent, sentAt, resendAfter = 60, pending }: { intent: string; sentAt?: number; resendAfter?: number; pending?: boolean }) {
  const { t } = useTranslation()
  const [left, setLeft] = useState(0)
  useEffect(() => {
    if (!sentAt) return
    const tick = () => setLeft(Math.max(0, Math.ceil((sentAt + resendAfter * 1000 - Date.now()) / 1000)))
    tick()
    const id = setInterval(tick, 1000)
    return () => clearInterval(id)
  }, [sentAt, resendAfter])
  return (
    <Button type="submit" name="intent" value={intent} variant="light" formNoValidate loading={pending} disabled={left > 0} miw={120}>
      {left > 0 ? t('auth.resendIn', { seconds: left }) : t('auth.sendCode')}
    </Button>
  )
}

/**
 * Where the code went. How codes are delivered is an operator's matter (issue 13): only an admin is told
 * that they wait in the code outbox; everyone else reads the same neutral notice.
 */
export function CodeSentNotice({ to, delivery, operator }: { to: string; delivery: 'outbox' | 'sent'; operator?: boolean }) {
  const { t } = useTranslation()
  return (
    <Alert color="green" variant="light" role="status">
      {t('auth.codeSentTo', { to })}
      {operator && delivery === 'outbox' ? ` ${t('auth.outboxHint')}` : ''}
    </Alert>
  )
}

/** What an action answers after sending a code (`#app/.server/codes.ts` CodeSent, with the time it was sent). */
type SentCode = { to: string; delivery: 'outbox' | 'sent'; resendAfter: number; at: number }

/**
 * The verification code field with its "Send code" button (submitting `intent`) beside it, and the
 * notice of where the last code went (`operator`: the user is an admin, who may be told about the outbox).
 */
export function VerificationCodeField({ meta, intent, sent, operator }: { meta: FieldMetadata<string | undefined | null>; intent: string; sent?: SentCode; operator?: boolean }) {
  const { t } = useTranslation()
  const sending = useIsPending({ intent })
  return (
    <>
      <Group align="flex-end" wrap="nowrap">
        <Box flex={1}>
          <TextField meta={meta} label={t('auth.verificationCode')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
        </Box>
        <Box mb={meta.errors ? 22 : 0}>
          <SendCodeButton intent={intent} sentAt={sent?.at} resendAfter={sent?.resendAfter} pending={sending} />
        </Box>
      </Group>
      {sent ? <CodeSentNotice to={sent.to} delivery={sent.delivery} operator={operator} /> : null}
    </>
  )
}
