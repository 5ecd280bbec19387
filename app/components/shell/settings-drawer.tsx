import { Button, ColorSwatch, CopyButton, Divider, Drawer, Group, NativeSelect, NumberInput, Paper, Radio, Stack, Switch, Text, Textarea, Title } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { Link, useFetcher, useLocation } from '@remix-run/react'
import { type FormEvent, useId } from 'react'
import { useTranslation } from 'react-i18next'
import { useHydrated } from '#app/hooks/use-hydrated.ts'
import type { SettingsActionData } from '#app/routes/settings/route.tsx'
import { type AppSettings, BOOLEAN_SETTINGS, DENSITIES, MENU_WIDTH, settingsJson, THEME_COLORS } from '#app/settings.ts'
import { useIsPending } from '../forms/fields.tsx'
import { SETTINGS_FETCHER } from './server-menu-notice.tsx'
import { useStoredSettings } from './use-settings.ts'

/** "Copy settings" (SPEC §2/§8): with JavaScript a button ('Copy succeeded...'); without, the JSON to select. */
function CopySettings({ settings }: { settings: AppSettings }) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const json = settingsJson(settings)
  if (!hydrated) return <Textarea label={t('shell.settings.json')} value={json} readOnly autosize minRows={4} maxRows={12} styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }} />
  return (
    <CopyButton value={json}>
      {({ copy }) => (
        <Button
          variant="default"
          onClick={() => {
            copy()
            notifications.show({ color: 'green', message: t('common.copySuccess'), autoClose: 5000 })
          }}
        >
          {t('shell.settings.copy')}
        </Button>
      )}
    </CopyButton>
  )
}

const BOOLEAN_GROUPS = [
  ['colorWeak'],
  ['navbar', 'menu', 'topMenu', 'hideMenu', 'menuCollapse', 'footer', 'tabBar'],
  ['menuFromServer'],
] as const satisfies readonly (readonly (typeof BOOLEAN_SETTINGS)[number][])[]

/**
 * The settings form (SPEC §3 App settings). It posts to /settings: without JavaScript by its Save
 * button (the page comes back with 'Save Success'), with it on every change through a fetcher
 * (`instant`), which the root applies at once from the pending form. Unchecked switches are not
 * submitted, so each one is named in a hidden `present` field.
 */
function SettingsForm({ settings }: { settings: AppSettings }) {
  const { t } = useTranslation()
  const location = useLocation()
  const fetcher = useFetcher<SettingsActionData>({ key: SETTINGS_FETCHER })
  const hydrated = useHydrated()
  const pending = useIsPending({ formAction: '/settings' }) || fetcher.state === 'submitting'
  const refused = fetcher.data && !fetcher.data.ok ? fetcher.data.error : null
  const redirectTo = (() => {
    const p = new URLSearchParams(location.search)
    p.delete('settings')
    return p.size ? `${location.pathname}?${p}` : location.pathname
  })()
  const instant = (e: FormEvent<HTMLFormElement>) => {
    const form = e.currentTarget
    const body = new FormData(form)
    body.set('instant', '1')
    fetcher.submit(body, { method: 'post', action: '/settings' })
  }
  // Its loading / loaded messages: ServerMenuNotice, in the layout (the fetcher is shared by key).
  return (
    <fetcher.Form method="post" action="/settings" onChange={hydrated ? instant : undefined} aria-label={t('shell.settings.title')}>
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {BOOLEAN_SETTINGS.map((k) => (
        <input key={k} type="hidden" name="present" value={k} />
      ))}
      <Stack gap="sm">
        <Radio.Group name="theme" label={t('shell.settings.theme')} defaultValue={settings.theme}>
          <Group mt={4}>
            <Radio value="light" label={t('shell.settings.light')} />
            <Radio value="dark" label={t('shell.settings.dark')} />
          </Group>
        </Radio.Group>
        <div>
          <Text size="sm" fw={500} id="theme-color-label">
            {t('shell.settings.themeColor')}
          </Text>
          <Group gap={6} mt={4} role="group" aria-labelledby="theme-color-label">
            {THEME_COLORS.map((c) => (
              <ColorSwatch
                key={c}
                component="button"
                type="submit"
                name="themeColorPreset"
                value={c}
                color={c}
                size={24}
                aria-label={c}
                aria-pressed={settings.themeColor === c}
                onClick={
                  hydrated
                    ? (e) => {
                        e.preventDefault()
                        const body = new FormData(e.currentTarget.form!)
                        body.set('themeColorPreset', c)
                        body.set('instant', '1')
                        fetcher.submit(body, { method: 'post', action: '/settings' })
                      }
                    : undefined
                }
                style={{ cursor: 'pointer', outline: settings.themeColor === c ? '2px solid var(--mantine-color-text)' : undefined, outlineOffset: 2 }}
              />
            ))}
            <input type="color" name="themeColor" defaultValue={settings.themeColor.toLowerCase()} aria-label={t('shell.settings.customColor')} className="ps-color-input" />
          </Group>
        </div>
        {/* No unit suffix in the value: the field submits its text, and '300 px' was not a width (decision 127). */}
        <NumberInput
          name="menuWidth"
          label={t('shell.settings.menuWidth')}
          defaultValue={settings.menuWidth}
          min={MENU_WIDTH.min}
          max={MENU_WIDTH.max}
          step={10}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          error={refused ? t(refused.key, refused.values) : undefined}
        />
        <NativeSelect name="density" label={t('shell.settings.density')} defaultValue={settings.density} data={DENSITIES.map((d) => ({ value: d, label: t(`shell.density.${d}`) }))} />
        {BOOLEAN_GROUPS.map((group, i) => (
          <Stack key={i} gap={8}>
            <Divider />
            {group.map((k) => (
              <Switch key={k} name={k} label={t(`shell.settings.${k}`)} defaultChecked={settings[k]} />
            ))}
          </Stack>
        ))}
        <Divider />
        <Group>
          <Button type="submit" loading={pending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </fetcher.Form>
  )
}

/**
 * The settings drawer of the header. With JavaScript a Mantine drawer (focus trapped inside, returned
 * to the button on close); without, `?settings` shows the same form as a panel above the page. The
 * layout loads this module on demand (issue 11 JS budget).
 */
export default function SettingsDrawer({ opened, onClose, closeTo }: { opened: boolean; onClose: () => void; closeTo: string }) {
  const { t } = useTranslation()
  const hydrated = useHydrated()
  const settings = useStoredSettings()
  const titleId = useId()
  const body = (
    <Stack>
      <SettingsForm settings={settings} />
      <Divider />
      <CopySettings settings={settings} />
    </Stack>
  )
  if (!hydrated) {
    if (!opened) return null
    return (
      <Paper withBorder shadow="md" p="lg" mb="md" maw={420} role="dialog" aria-labelledby={titleId} className="ps-settings-panel">
        <Group justify="space-between" mb="sm">
          <Title order={3} size="h4" id={titleId}>
            {t('shell.settings.title')}
          </Title>
          <Button component={Link} to={closeTo} variant="subtle" size="compact-sm">
            {t('shell.settings.close')}
          </Button>
        </Group>
        {body}
      </Paper>
    )
  }
  return (
    <Drawer opened={opened} onClose={onClose} position="right" title={t('shell.settings.title')} closeButtonProps={{ 'aria-label': t('shell.settings.close') }}>
      {body}
    </Drawer>
  )
}
