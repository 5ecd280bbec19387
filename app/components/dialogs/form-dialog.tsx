import { type FieldMetadata, type FormMetadata, getFormProps } from '@conform-to/react'
import { Group, Radio, Stack, Text } from '@mantine/core'
import { Form } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { FormErrors } from '../forms/fields.tsx'
import { DialogButtons, UrlDialog } from './url-dialog.tsx'

type FormDialogProps<S extends Record<string, unknown>> = {
  title: string
  /** The conform form the fields belong to. */
  form: FormMetadata<S, string[]>
  /** Where the form posts (the list URL with the dialog open, so a refusal comes back with it open). */
  action: string
  closeTo: string
  /** `create` or `edit`: the submit button's intent. */
  intent: string
  submitLabel: string
  /** The edited item's id, sent in a hidden field. */
  id?: number
  /** A line above the fields (what an edit changes). */
  notice?: ReactNode
  children: ReactNode
}

/**
 * An admin's create / edit form in a URL dialog (channels, packages, …): the fields, the form's own
 * errors, Cancel (a link back to the list) and the submit button with its pending state. Works without
 * JavaScript: the dialog is then a section of the page and the form a plain POST.
 */
export function FormDialog<S extends Record<string, unknown>>({ title, form, action, closeTo, intent, submitLabel, id, notice, children }: FormDialogProps<S>) {
  return (
    <UrlDialog title={title} closeTo={closeTo}>
      <Form method="post" action={action} preventScrollReset {...getFormProps(form)}>
        {id !== undefined ? <input type="hidden" name="id" value={id} /> : null}
        <Stack>
          {notice ? (
            <Text size="sm" c="dimmed">
              {notice}
            </Text>
          ) : null}
          {children}
          <FormErrors errors={form.errors} id={form.errorId} />
          <DialogButtons closeTo={closeTo} intent={intent} label={submitLabel} />
        </Stack>
      </Form>
    </UrlDialog>
  )
}

type StatusRadioProps<S extends string> = {
  meta: FieldMetadata<string | undefined | null>
  label: string
  description?: string
  statuses: readonly S[]
  /** The status's label (`channels.statuses.enable`, …). */
  labelOf: (status: S) => string
  fallback: S
}

/** A status chosen by radio buttons, its error translated from the contract's message key. */
export function StatusRadio<S extends string>({ meta, label, description, statuses, labelOf, fallback }: StatusRadioProps<S>) {
  const { t } = useTranslation()
  const error = meta.errors?.[0]
  return (
    <Radio.Group
      name={meta.name}
      label={label}
      description={description}
      defaultValue={(meta.initialValue as string | undefined) ?? fallback}
      error={error ? t(error, { defaultValue: t('validation.invalid') }) : undefined}
    >
      <Group mt="xs">
        {statuses.map((s) => (
          <Radio key={s} value={s} label={labelOf(s)} id={`${meta.formId}-${meta.name}-${s}`} />
        ))}
      </Group>
    </Radio.Group>
  )
}
