import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Badge, Button, Group, Stack, Text } from '@mantine/core'
import { Form, Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { appealCreateSchema, type Takedown } from '#contract/moderation.ts'
import { DialogButtons, UrlDialog } from '../dialogs/url-dialog.tsx'
import { FormErrors, TextareaField } from '../forms/fields.tsx'
import { AppealStatusBadge } from './moderation.tsx'

/** The seller's appeal form (a URL dialog): the API's own schema in the browser and in the action. */
export const appealFormSchema = appealCreateSchema

/** Why a share of the seller is down, and where its appeal stands (or the link that opens the form). */
export function TakedownNote({ takedown, appealTo, title }: { takedown: Takedown; appealTo: string; title: string }) {
  const { t } = useTranslation()
  return (
    <Stack gap={4} mt={4} w="100%" align="flex-start">
      <Text size="xs" c="red.8">
        {takedown.reasons.length
          ? t('moderation.takedown.reasons', { reasons: takedown.reasons.map((r) => t(`moderation.reason.${r}`)).join(t('moderation.separator')) })
          : t('moderation.takedown.byAdmin')}
      </Text>
      {takedown.appeal ? (
        <Group gap={4}>
          <Badge variant="outline" size="sm" color="gray">
            {t('moderation.takedown.appeal')}
          </Badge>
          <AppealStatusBadge status={takedown.appeal.appeal_status} />
        </Group>
      ) : (
        <Button
          component={Link}
          to={appealTo}
          preventScrollReset
          size="compact-xs"
          variant="light"
          color="orange"
          aria-label={`${t('moderation.takedown.appeal')} ${title}`}
        >
          {t('moderation.takedown.appeal')}
        </Button>
      )}
    </Stack>
  )
}

export function AppealDialog({
  share,
  lastResult,
  action,
  closeTo,
}: {
  share: { id: number; title: string; unicode: string }
  lastResult?: SubmissionResult<string[]>
  action: string
  closeTo: string
}) {
  const { t } = useTranslation()
  const [form, fields] = useForm({
    id: `appeal-${share.id}`,
    lastResult,
    constraint: getZodConstraint(appealFormSchema),
    defaultValue: { unicode: share.unicode },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: appealFormSchema }),
  })
  return (
    <UrlDialog title={t('moderation.appeal.title')} closeTo={closeTo}>
      <Form method="post" action={action} preventScrollReset {...getFormProps(form)}>
        <input type="hidden" name={fields.unicode.name} value={share.unicode} />
        <Stack>
          <Text size="sm">{t('moderation.appeal.text', { title: share.title, unicode: share.unicode })}</Text>
          <TextareaField meta={fields.description} label={t('moderation.appeal.descriptionLabel')} autosize minRows={3} data-autofocus />
          <FormErrors errors={form.errors} id={form.errorId} />
          <DialogButtons closeTo={closeTo} intent="appeal" label={t('moderation.appeal.submit')} />
        </Stack>
      </Form>
    </UrlDialog>
  )
}
