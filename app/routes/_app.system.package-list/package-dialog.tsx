import { type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import type { z } from 'zod'
import { DOWNLOAD_LIMIT_MAX, DURATION_DAYS_MAX, PACKAGE_NAME_MAX, PACKAGE_STATUSES, packageCreateSchema, type PackageStatus } from '#contract/packages.ts'
import { idSchema } from '#contract/users.ts'
import { FormDialog, StatusRadio } from '#app/components/dialogs/form-dialog.tsx'
import { TextField } from '#app/components/forms/fields.tsx'
import { PriceField } from '#app/components/shares/share-form.tsx'

/** The create form is the API's own schema; the edit form the same with the package's id. */
export const createSchema = packageCreateSchema
export const editSchema = packageCreateSchema.extend({ id: idSchema })

export type PackageValues = { id?: number; name: string; download_limit: number; price: number; duration_days: number; status: PackageStatus }

/**
 * The admin's create / edit form of a package (in a URL dialog): posts to this URL, so a refusal comes
 * back with the dialog still open and the errors on the fields; a success returns to the list.
 */
export function PackageDialog({ pkg, lastResult, action, closeTo }: { pkg: PackageValues | null; lastResult?: SubmissionResult<string[]>; action: string; closeTo: string }) {
  const { t } = useTranslation()
  const intent = pkg ? 'edit' : 'create'
  const schema = pkg ? editSchema : createSchema
  const [form, fields] = useForm({
    id: `package-${intent}-${pkg?.id ?? 'new'}`,
    lastResult,
    constraint: getZodConstraint(schema as z.ZodType),
    defaultValue: pkg
      ? { name: pkg.name, download_limit: String(pkg.download_limit), price: pkg.price.toFixed(2), duration_days: String(pkg.duration_days), status: pkg.status }
      : { name: '', download_limit: '', price: '', duration_days: '', status: 'on_sale' },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  return (
    <FormDialog
      title={pkg ? t('subscriptions.admin.editTitle') : t('subscriptions.admin.createTitle')}
      form={form}
      action={action}
      closeTo={closeTo}
      intent={intent}
      submitLabel={pkg ? t('common.save') : t('subscriptions.admin.create')}
      id={pkg?.id}
      notice={pkg ? t('subscriptions.admin.editNotice') : undefined}
    >
      <TextField meta={fields.name} label={t('subscriptions.field.name')} maxLength={PACKAGE_NAME_MAX} data-autofocus />
      <TextField
        meta={fields.download_limit as never}
        label={t('subscriptions.field.downloadLimit')}
        description={t('subscriptions.admin.limitHint')}
        inputMode="numeric"
        placeholder={`1 – ${DOWNLOAD_LIMIT_MAX}`}
        maw={320}
      />
      <PriceField meta={fields.price as never} />
      <TextField
        meta={fields.duration_days as never}
        label={t('subscriptions.field.durationDays')}
        description={t('subscriptions.admin.durationHint')}
        inputMode="numeric"
        placeholder={`1 – ${DURATION_DAYS_MAX}`}
        maw={320}
      />
      <StatusRadio
        meta={fields.status}
        label={t('subscriptions.field.status')}
        description={t('subscriptions.admin.statusHint')}
        statuses={PACKAGE_STATUSES}
        labelOf={(s) => t(`subscriptions.statuses.${s}`)}
        fallback={pkg?.status ?? 'on_sale'}
      />
    </FormDialog>
  )
}
