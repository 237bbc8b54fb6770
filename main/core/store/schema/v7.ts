/**
 * Version 7: a video job's way on the platform, as the queue shows it. When its task was
 * submitted (elapsed time), when it was last checked and by which request, the status as the
 * platform spelled it (an unknown one is shown as still pending), and since when it is past
 * its model's usual time ("overdue: checking").
 */
export const schemaV7 = `
ALTER TABLE jobs ADD COLUMN video_submitted_at INTEGER;
ALTER TABLE jobs ADD COLUMN video_checked_at INTEGER;
ALTER TABLE jobs ADD COLUMN video_check_request_id TEXT;
-- the platform's own word (video_task_status is that word mapped to a known state)
ALTER TABLE jobs ADD COLUMN video_platform_status TEXT;
ALTER TABLE jobs ADD COLUMN video_overdue_at INTEGER;
-- what was submitted before these columns existed: its start is the best guess
UPDATE jobs SET video_submitted_at = started_at WHERE video_task_id IS NOT NULL;
`;
