import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Group, Radio, Stack, Text } from '@mantine/core'
import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { adminShareUpdateSchema, type ShareStatus, type SUBSCRIPTION_STATUSES } from '#contract/shares.ts'
import { DialogButtons, UrlDialog } from '#app/components/dialogs/url-dialog.tsx'
import { FormErrors, TextField } from '#app/components/forms/fields.tsx'
import { PriceField } from '#app/components/shares/share-form.tsx'
import { ShareStatusBadge } from '#app/components/shares/shares.tsx'

/**
 * The edit form: the API's own rules (adminShareUpdateSchema) with every field required, in the browser
 * and in the action.
 */
const ADMIN_FIELDS = adminShareUpdateSchema.shape
export const editSchema = z.object({
  id: ADMIN_FIELDS.id,
  title: ADMIN_FIELDS.title.unwrap(),
  price: ADMIN_FIELDS.price.unwrap(),
  subscription_status: z.enum(ADMIN_FIELDS.subscription_status.unwrap().options, { error: 'validation.subscriptionStatus' }),
})

type EditTarget = {
  id: number
  title: string
  unicode: string
  seller: string
  status: ShareStatus
  price: number
  subscription_status: (typeof SUBSCRIPTION_STATUSES)[number]
}

/**
 * The admin's edit form (in a URL dialog): posts to this URL, so a refusal comes back with the dialog
 * still open and the errors on the fields; a success returns to the list with its filters.
 */
export function EditShareDialog({
  share,
  lastResult,
  action,
  closeTo,
}: {
  share: EditTarget
  lastResult?: SubmissionResult<string[]>
  action: string
  closeTo: string
}) {
  const { t } = useTranslation()
  const [form, fields] = useForm({
    id: `admin-share-edit-${share.id}`,
    lastResult,
    constraint: getZodConstraint(editSchema),
    defaultValue: { id: String(share.id), title: share.title, price: share.price.toFixed(2), subscription_status: share.subscription_status },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: editSchema }),
  })
  const subscriptionError = fields.subscription_status.errors?.[0]
  return (
    <UrlDialog title={t('shares.admin.editTitle')} closeTo={closeTo}>
      <Form method="post" action={action} preventScrollReset {...getFormProps(form)}>
        <input type="hidden" name={fields.id.name} value={share.id} />
        <Stack>
          <Group gap="xs">
            <Text size="sm">{t('shares.admin.editOf', { unicode: share.unicode, seller: share.seller })}</Text>
            <ShareStatusBadge status={share.status} />
          </Group>
          <Text size="sm" c="dimmed">
            {share.status === 'violation' ? t('shares.admin.editBannedNotice') : t('shares.admin.editNotice')}
          </Text>
          <TextField meta={fields.title} label={t('shares.field.title')} data-autofocus />
          <PriceField meta={fields.price as never} />
          <Radio.Group
            name={fields.subscription_status.name}
            label={t('shares.field.subscription')}
            defaultValue={fields.subscription_status.initialValue ?? share.subscription_status}
            error={subscriptionError ? t(subscriptionError, { defaultValue: t('validation.invalid') }) : undefined}
          >
            <Group mt="xs">
              <Radio value="close" label={t('shares.form.subscriptionClose')} />
              <Radio value="open" label={t('shares.form.subscriptionOpen')} />
            </Group>
          </Radio.Group>
          <FormErrors errors={form.errors} id={form.errorId} />
          <DialogButtons closeTo={closeTo} intent="edit" label={t('common.save')} />
        </Stack>
      </Form>
    </UrlDialog>
  )
}
