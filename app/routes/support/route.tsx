import { type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { requireUser } from '#app/.server/auth.ts'
import { env } from '#app/.server/env.ts'

/** Where customer service is without an outside SUPPORT_URL: the after-sales chats (decision 127). */
const SUPPORT_FALLBACK = '/user/my-message?tab=chats'

/**
 * The menu's online customer service (SPEC §2, logged in): one console URL for both menu sources,
 * sending the user on to the SUPPORT_URL of the console's environment — or, with none set, to the
 * after-sales chats and private messages in the console, where the platform answers (decision 127).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser({ request, context })
  return redirect(env.supportUrl ?? SUPPORT_FALLBACK)
}
