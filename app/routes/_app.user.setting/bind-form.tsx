import { type FormMetadata, getFormProps } from '@conform-to/react'
import { Button, Group, Stack, Text } from '@mantine/core'
import { Form } from '@remix-run/react'
import type { ComponentProps } from 'react'
import { useTranslation } from 'react-i18next'
import { VerificationCodeField } from '#app/components/forms/code-field.tsx'
import { FormErrors, TextField, useIsPending } from '#app/components/forms/fields.tsx'
import { type SectionResult, settingsAction } from './section-form.ts'

type BindFormProps<F extends Record<string, unknown>> = {
  kind: 'email' | 'phone'
  current: string | null
  form: FormMetadata<F, string[]>
  target: ComponentProps<typeof TextField>['meta']
  code: ComponentProps<typeof VerificationCodeField>['meta']
  /** An admin may be told that codes wait in the outbox (issue 13: an operator's matter). */
  operator: boolean
  last?: SectionResult
}

/** The email and phone forms (each checked by its own schema): the address, the code with its "Send code" button, bind. */
export function BindForm<F extends Record<string, unknown>>({ kind, current, form, target, code, operator, last }: BindFormProps<F>) {
  const { t } = useTranslation()
  const action = settingsAction(kind)
  const pending = useIsPending({ formAction: action, intent: kind })
  return (
    <Form method="post" action={action} {...getFormProps(form)}>
      <Stack>
        <Text size="sm">
          {t(`settings.current.${kind}`)}: <b>{current ?? t('settings.notBound')}</b>
        </Text>
        <TextField meta={target} type={kind === 'email' ? 'email' : 'tel'} label={t(`settings.new.${kind}`)} />
        <VerificationCodeField meta={code} intent={`${kind}Code`} sent={last?.codeSent} operator={operator} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Group>
          <Button type="submit" name="intent" value={kind} loading={pending}>
            {current ? t(`settings.change.${kind}`) : t(`settings.bind.${kind}`)}
          </Button>
        </Group>
      </Stack>
    </Form>
  )
}
