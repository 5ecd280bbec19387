export { default as messagesModule } from './routes.ts'
export { spendMessagePoint, unreadMessageCounts } from './service.ts'
