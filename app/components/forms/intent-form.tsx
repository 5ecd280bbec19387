import { type FormMetadata, getFormProps } from '@conform-to/react'
import { Button, Stack } from '@mantine/core'
import { Form } from '@remix-run/react'
import type { ReactNode } from 'react'
import { FormErrors, useIsPending } from './fields.tsx'

/**
 * A POST form of one intent, the shape of the login page's and the QQ/WeChat choice page's forms: its
 * fields, the form's own errors, and one full-width submit button that spins while it is sent.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any conform form: the fields are the caller's
export function IntentForm({ form, intent, label, children }: { form: FormMetadata<any, string[]>; intent: string; label: string; children: ReactNode }) {
  const pending = useIsPending({ intent })
  return (
    <Form method="post" {...getFormProps(form)}>
      <Stack>
        {children}
        <FormErrors errors={form.errors} id={form.errorId} />
        <Button type="submit" name="intent" value={intent} loading={pending} fullWidth>
          {label}
        </Button>
      </Stack>
    </Form>
  )
}
