/** `WxH` → `W*H` for Qwen-style bodies (interface 2.3). */
export function toQwenSize(size: string): string {
  return size.replace('x', '*');
}
