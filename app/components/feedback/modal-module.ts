// Mantine's Modal alone, behind a dynamic import (flash.tsx's ConfirmLogout).
export { Modal } from '@mantine/core'
