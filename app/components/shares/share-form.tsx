import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Button, Group, Radio, Stack } from '@mantine/core'
import { Form, Link } from '@remix-run/react'
import type { ComponentProps } from 'react'
import { useTranslation } from 'react-i18next'
import { PRICE_MAX_YUAN, SHARE_TYPES, type ShareType, type SUBSCRIPTION_STATUSES } from '#contract/values/shares.ts'
import { shareCreateSchema } from '#contract/shares.ts'
import { FormErrors, TextareaField, TextField, useIsPending } from '../forms/fields.tsx'
import { useHydrated } from '#app/hooks/use-hydrated.ts'
import { TextSeparated } from '#app/components/layout/text-mode.tsx'

export type ShareFormValues = {
  title: string
  type: ShareType
  content: string
  extraction_code: string
  price: string
  subscription_status: (typeof SUBSCRIPTION_STATUSES)[number]
}

export const EMPTY_SHARE: ShareFormValues = { title: '', type: 'text', content: '', extraction_code: '', price: '', subscription_status: 'close' }

/** The price in yuan (the seller's form and the admin's edit form). */
export function PriceField({ meta }: { meta: ComponentProps<typeof TextField>['meta'] }) {
  const { t } = useTranslation()
  return (
    <TextField
      meta={meta}
      label={t('shares.field.price')}
      description={t('shares.form.priceHint')}
      inputMode="decimal"
      leftSection="¥"
      maw={320}
      placeholder={`0.01 – ${PRICE_MAX_YUAN}`}
    />
  )
}

/**
 * The create / edit form of a share: the API's own schema (contract/shares.ts) in the browser and on
 * the server. With JavaScript the content field follows the type (text area for text, a link input
 * for URL and netdisk) and the extraction code shows for netdisk only; without it every field shows.
 */
export function ShareForm({ lastResult, defaultValue, submitLabel }: { lastResult?: SubmissionResult<string[]>; defaultValue: ShareFormValues; submitLabel: string }) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const pending = useIsPending()
  const [form, fields] = useForm({
    id: 'share-form',
    lastResult,
    constraint: getZodConstraint(shareCreateSchema),
    defaultValue,
    // Not on blur before the first submit: the message a blur adds moves the submit button away from the
    // click that caused the blur, which then never submits — one error per click (issue 23). All at once,
    // as without JavaScript; then each field follows the typing.
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: shareCreateSchema }),
  })
  const fieldError = (errors?: string[]) => (errors?.[0] ? t(errors[0], { defaultValue: t('validation.invalid') }) : undefined)
  const type = ((hydrated ? fields.type.value : fields.type.initialValue) ?? defaultValue.type) as ShareType
  const linkType = type === 'url' || type === 'netdisk'
  // The element changes with the type; the new one starts from what was typed so far.
  const content = { meta: fields.content, label: linkType ? t('shares.field.link') : t('shares.field.content'), defaultValue: fields.content.value ?? '' }
  return (
    <Form method="post" {...getFormProps(form)}>
      <Stack>
        <TextField meta={fields.title} label={t('shares.field.title')} />
        <Radio.Group
          name={fields.type.name}
          label={t('shares.field.type')}
          defaultValue={fields.type.initialValue ?? defaultValue.type}
          error={fieldError(fields.type.errors)}
          withAsterisk
        >
          <Group mt="xs">
            {SHARE_TYPES.map((v) => (
              <Radio key={v} value={v} label={t(`shares.types.${v}`)} />
            ))}
          </Group>
        </Radio.Group>
        {hydrated && linkType ? (
          <TextField {...content} inputMode="url" placeholder="https://" description={t('shares.form.contentLinkHint')} />
        ) : (
          <TextareaField
            {...content}
            autosize
            minRows={4}
            maxRows={12}
            description={hydrated ? t('shares.form.contentTextHint') : linkType ? t('shares.form.contentLinkHint') : t('shares.form.contentAnyHint')}
          />
        )}
        {!hydrated || type === 'netdisk' ? (
          <TextField meta={fields.extraction_code} label={t('shares.field.extractionCode')} description={t('shares.form.extractionCodeHint')} maw={320} />
        ) : null}
        <PriceField meta={fields.price as never} />
        <Radio.Group
          name={fields.subscription_status.name}
          label={t('shares.field.subscription')}
          description={t('shares.form.subscriptionHint')}
          defaultValue={fields.subscription_status.initialValue ?? defaultValue.subscription_status}
          error={fieldError(fields.subscription_status.errors)}
        >
          <Group mt="xs">
            <Radio value="close" label={t('shares.form.subscriptionClose')} />
            <Radio value="open" label={t('shares.form.subscriptionOpen')} />
          </Group>
        </Radio.Group>
        <FormErrors errors={form.errors} id={form.errorId} />
        <Group>
          <TextSeparated>
            <Button type="submit" loading={pending}>
              {submitLabel}
            </Button>
            <Button component={Link} to="/share-manage/search-table" variant="default">
              {t('common.cancel')}
            </Button>
          </TextSeparated>
        </Group>
      </Stack>
    </Form>
  )
}
