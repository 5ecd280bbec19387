import { type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { SimpleGrid } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { type Channel, CHANNEL_STATUSES, channelFields } from '#contract/channels.ts'
import { idSchema } from '#contract/users.ts'
import { FormDialog, StatusRadio } from '#app/components/dialogs/form-dialog.tsx'
import { TextField } from '#app/components/forms/fields.tsx'

/** The create form: the API's own field rules (contract/channels.ts), every field required. */
export const createFormSchema = z.object(channelFields)
/** The edit form: the same, with the channel's id. */
export const editFormSchema = createFormSchema.extend({ id: idSchema })
/** What the browser checks for both (the id rides in a hidden field when editing). */
const browserSchema = createFormSchema.extend({ id: idSchema.optional() })

/**
 * The admin's create / edit form of a channel (in a URL dialog): posts to this URL, so a refusal comes
 * back with the dialog still open and the message at its field; a success returns to the list.
 */
export function ChannelDialog({ channel, lastResult, action, closeTo }: { channel?: Channel; lastResult?: SubmissionResult<string[]>; action: string; closeTo: string }) {
  const { t } = useTranslation()
  const intent = channel ? 'edit' : 'create'
  const [form, fields] = useForm({
    id: channel ? `channel-edit-${channel.id}` : 'channel-new',
    lastResult,
    constraint: getZodConstraint(browserSchema),
    defaultValue: channel
      ? {
          id: String(channel.id),
          name: channel.name,
          price: channel.price.toFixed(2),
          fee_rate: String(channel.fee_rate),
          minimum_income: channel.minimum_income.toFixed(2),
          service_duration: String(channel.service_duration),
          status: channel.status,
        }
      : { status: 'enable' },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: browserSchema }),
  })
  return (
    <FormDialog
      title={t(channel ? 'channels.admin.editTitle' : 'channels.admin.newTitle')}
      form={form}
      action={action}
      closeTo={closeTo}
      intent={intent}
      submitLabel={t(channel ? 'common.save' : 'channels.admin.create')}
      id={channel?.id}
      notice={channel ? t('channels.admin.editNotice') : undefined}
    >
      <TextField meta={fields.name} label={t('channels.field.name')} data-autofocus />
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <TextField meta={fields.price as never} label={t('channels.field.price')} description={t('channels.hint.price')} inputMode="decimal" leftSection="¥" />
        <TextField meta={fields.fee_rate as never} label={t('channels.field.feeRate')} description={t('channels.hint.feeRate')} inputMode="decimal" rightSection="%" />
        <TextField
          meta={fields.minimum_income as never}
          label={t('channels.field.minimumIncome')}
          description={t('channels.hint.minimumIncome')}
          inputMode="decimal"
          leftSection="¥"
        />
        <TextField meta={fields.service_duration as never} label={t('channels.field.duration')} description={t('channels.hint.duration')} inputMode="numeric" />
      </SimpleGrid>
      <StatusRadio meta={fields.status} label={t('channels.field.status')} statuses={CHANNEL_STATUSES} labelOf={(s) => t(`channels.statuses.${s}`)} fallback={channel?.status ?? 'enable'} />
    </FormDialog>
  )
}
