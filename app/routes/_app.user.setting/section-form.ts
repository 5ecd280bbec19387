import { type DefaultValue, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useOutletContext } from '@remix-run/react'
import type { z } from 'zod'
import type { User } from '#contract/users.ts'
import type { CodeSent } from '#app/.server/codes.ts'

/** What a settings form's action answers when it does not redirect: the form's result, and where a code went. */
export type SectionResult = { result: SubmissionResult<string[]>; codeSent?: CodeSent & { at: number } }

/** The user, handed by the settings page to the form route it shows (`<Outlet context>`). */
export const useSettingsUser = () => useOutletContext<User>()

/** Where each settings form posts: its own route (app/routes/_app.user.setting.<name>/). */
export const settingsAction = (name: 'profile' | 'password' | 'phone' | 'email' | 'alipay' | 'terms') => `/user/setting/${name}`

/**
 * One conform form per section, checked by its own schema in the browser and in its route's action;
 * `lastResult` is that action's answer (only the form shown through the outlet has one). A form with a
 * "Send code" button (intent `…Code`) checks that submission by `codeSchema`: the address alone.
 */
export function useSectionForm<S extends z.ZodObject>(
  id: string,
  schema: S,
  lastResult: SubmissionResult<string[]> | undefined,
  { defaultValue, codeSchema }: { defaultValue?: DefaultValue<z.input<S>>; codeSchema?: z.ZodObject } = {},
) {
  return useForm<z.input<S>, z.output<S> | z.output<NonNullable<typeof codeSchema>>>({
    id,
    lastResult,
    constraint: getZodConstraint(schema),
    defaultValue,
    shouldValidate: 'onBlur',
    // Once shown, an error goes as soon as the value is fixed, not on the blur of the click on submit
    // (that blur moved the button away from under the pointer and the click was lost).
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) =>
      codeSchema && String(formData.get('intent')).endsWith('Code') ? parseWithZod(formData, { schema: codeSchema }) : parseWithZod(formData, { schema }),
  })
}
