import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'
import { forgotFormSchema, loginSchema, registerFormSchema } from '#contract/auth.ts'
import { emailOrPhoneSchema } from '#contract/rules.ts'

/**
 * The login page's schemas, in a module of its own: the action imports it, the browser loads it after
 * hydration (`useLazyValidators`), so zod is not part of the page's first load (issue 11).
 */
const codeOnlySchema = z.object({ email_phone: emailOrPhoneSchema })

/** Which schema a submission is checked with, by the button that sent it (browser and server alike). */
export function schemaFor(intent: FormDataEntryValue | null) {
  switch (intent) {
    case 'register':
      return registerFormSchema
    case 'registerCode':
    case 'forgotCode':
      return codeOnlySchema
    case 'forgot':
      return forgotFormSchema
    default:
      return loginSchema
  }
}

export const validate = (formData: FormData) => parseWithZod(formData, { schema: schemaFor(formData.get('intent')) })
export const validateLogin = (formData: FormData) => parseWithZod(formData, { schema: loginSchema })
