import { Badge, Button, Group, NativeSelect, TextInput } from '@mantine/core'
import { Form, useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { APPEAL_STATUSES, type AppealStatus, REPORT_REASONS, REPORT_STATUSES, type ReportStatus } from '#contract/moderation.ts'
import { DateField } from '#app/components/forms/date-field.tsx'

const NO_SHRINK = { minWidth: 'max-content' } as const
const REPORT_COLORS: Record<ReportStatus, string> = { processing: 'orange', handled: 'green' }
const APPEAL_COLORS: Record<AppealStatus, string> = { pending: 'orange', approved: 'green', banned: 'red' }

export function ReportStatusBadge({ status }: { status: ReportStatus }) {
  const { t } = useTranslation()
  return (
    <Badge variant="light" color={REPORT_COLORS[status]} style={NO_SHRINK}>
      {t(`moderation.reportStatus.${status}`)}
    </Badge>
  )
}

export function AppealStatusBadge({ status }: { status: AppealStatus }) {
  const { t } = useTranslation()
  return (
    <Badge variant="light" color={APPEAL_COLORS[status]} style={NO_SHRINK}>
      {t(`moderation.appealStatus.${status}`)}
    </Badge>
  )
}

/** The GET filter form of the report queue / the appeal list (works without JavaScript). */
export function ModerationFilters({ kind }: { kind: 'reports' | 'appeals' }) {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const value = (f: string) => params.get(f) ?? ''
  const all = { value: '', label: t('common.all') }
  return (
    <Form method="get">
      <Group align="flex-end" gap="sm">
        {kind === 'reports' ? (
          <NativeSelect
            name="status"
            label={t('moderation.filter.status')}
            defaultValue={value('status')}
            data={[all, ...REPORT_STATUSES.map((s) => ({ value: s, label: t(`moderation.reportStatus.${s}`) }))]}
          />
        ) : (
          <NativeSelect
            name="appeal_status"
            label={t('moderation.filter.appealStatus')}
            defaultValue={value('appeal_status')}
            data={[all, ...APPEAL_STATUSES.map((s) => ({ value: s, label: t(`moderation.appealStatus.${s}`) }))]}
          />
        )}
        <TextInput name="unicode" label={t('moderation.filter.unicode')} defaultValue={value('unicode')} maxLength={32} w={140} />
        {kind === 'reports' ? (
          <NativeSelect name="reason" label={t('moderation.filter.reason')} defaultValue={value('reason')} data={[all, ...REPORT_REASONS.map((r) => ({ value: r, label: t(`moderation.reason.${r}`) }))]} />
        ) : null}
        <DateField name="from" label={t('moderation.filter.from')} value={value('from')} />
        <DateField name="to" label={t('moderation.filter.to')} value={value('to')} />
        <Button type="submit" variant="light">
          {t('common.search')}
        </Button>
      </Group>
    </Form>
  )
}
