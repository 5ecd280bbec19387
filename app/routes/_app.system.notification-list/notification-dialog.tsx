import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Group, Radio, Stack } from '@mantine/core'
import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { z } from 'zod'
import { LABEL_COLORS, MESSAGE_MAX, type Notification, notificationInputSchema, notificationUpdateSchema, PRIORITY_MAX, TITLE_MAX } from '#contract/messages.ts'
import { DialogButtons, UrlDialog } from '#app/components/dialogs/url-dialog.tsx'
import { FormErrors, TextareaField, TextField } from '#app/components/forms/fields.tsx'

export const createSchema = notificationInputSchema
export const editSchema = notificationUpdateSchema

/** The create / edit form of a notification in a URL dialog; a refusal comes back with the errors at the fields. */
export function NotificationDialog({
  notification,
  lastResult,
  action,
  closeTo,
}: {
  notification: Notification | null
  lastResult?: SubmissionResult<string[]>
  action: string
  closeTo: string
}) {
  const { t } = useTranslation()
  const intent = notification ? 'edit' : 'create'
  const schema = notification ? editSchema : createSchema
  const [form, fields] = useForm({
    id: `notification-${intent}-${notification?.id ?? 'new'}`,
    lastResult,
    constraint: getZodConstraint(schema as z.ZodType),
    defaultValue: notification
      ? { title: notification.title, priority: String(notification.priority), content: notification.content, label_color: notification.label_color }
      : { title: '', priority: '0', content: '', label_color: 'blue' },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  const colorError = fields.label_color.errors?.[0]
  return (
    <UrlDialog title={t(notification ? 'messages.notificationEditTitle' : 'messages.notificationCreateTitle')} closeTo={closeTo}>
      <Form method="post" action={action} preventScrollReset {...getFormProps(form)}>
        {notification ? <input type="hidden" name="id" value={notification.id} /> : null}
        <Stack>
          <TextField meta={fields.title} label={t('messages.field.title')} maxLength={TITLE_MAX} data-autofocus />
          <TextField
            meta={fields.priority as never}
            label={t('messages.field.priority')}
            description={t('messages.priorityHint', { max: PRIORITY_MAX })}
            inputMode="numeric"
            maw={200}
          />
          <TextareaField meta={fields.content} label={t('messages.field.content')} autosize minRows={3} maxLength={MESSAGE_MAX} />
          <Radio.Group
            name={fields.label_color.name}
            label={t('messages.field.labelColor')}
            defaultValue={(fields.label_color.initialValue as string | undefined) ?? notification?.label_color ?? 'blue'}
            error={colorError ? t(colorError) : undefined}
          >
            <Group mt="xs">
              {LABEL_COLORS.map((c) => (
                <Radio key={c} value={c} label={t(`messages.labelColors.${c}`)} />
              ))}
            </Group>
          </Radio.Group>
          <FormErrors errors={form.errors} id={form.errorId} />
          <DialogButtons closeTo={closeTo} intent={intent} label={t('common.save')} />
        </Stack>
      </Form>
    </UrlDialog>
  )
}
