import { type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { requireUser } from '#app/.server/auth.ts'
import { env } from '#app/.server/env.ts'

/** Where customer service is without an outside SUPPORT_URL: "Write to support", beside the after-sales chats (decision 127). */
const SUPPORT_FALLBACK = '/user/my-message'

/**
 * The menu's online customer service (SPEC §2, logged in): one console URL for both menu sources,
 * sending the user on to the SUPPORT_URL of the console's environment — or, with none set, to My
 * messages: "Write to support" (private messages the platform answers), its after-sales chats a tab
 * away (decision 127).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser({ request, context })
  return redirect(env.supportUrl ?? SUPPORT_FALLBACK)
}
