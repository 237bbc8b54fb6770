// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { editCommandOf, type KeyLike } from '../../../../renderer/src/screens/edit/edit-keys.ts';

const press = (key: string, patch: Partial<KeyLike> = {}): KeyLike => ({
  key,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  target: document.body,
  ...patch,
});

describe("the editor's keys", () => {
  it('pick tools, size, invert, clear, zoom and move', () => {
    expect(editCommandOf(press('b'))).toBe('brush');
    expect(editCommandOf(press('E'))).toBe('eraser');
    expect(editCommandOf(press('h'))).toBe('hand');
    expect(editCommandOf(press('['))).toBe('smaller');
    expect(editCommandOf(press(']'))).toBe('bigger');
    expect(editCommandOf(press('i'))).toBe('invert');
    expect(editCommandOf(press('Delete'))).toBe('clear');
    expect(editCommandOf(press('+', { shiftKey: true }))).toBe('zoom-in');
    expect(editCommandOf(press('0'))).toBe('fit');
    expect(editCommandOf(press('ArrowLeft'))).toBe('pan-left');
    expect(editCommandOf(press('q'))).toBeNull();
  });

  it('undo and redo with Ctrl or ⌘, Run with Ctrl+Enter even from the prompt', () => {
    expect(editCommandOf(press('z', { ctrlKey: true }))).toBe('undo');
    expect(editCommandOf(press('Z', { metaKey: true, shiftKey: true }))).toBe('redo');
    expect(editCommandOf(press('y', { ctrlKey: true }))).toBe('redo');
    expect(editCommandOf(press('b', { ctrlKey: true }))).toBeNull();
    const prompt = document.createElement('textarea');
    expect(editCommandOf(press('Enter', { ctrlKey: true, target: prompt }))).toBe('run');
  });

  it('leave typing alone: a field or the size slider keeps its keys', () => {
    const prompt = document.createElement('textarea');
    expect(editCommandOf(press('b', { target: prompt }))).toBeNull();
    expect(editCommandOf(press('Backspace', { target: prompt }))).toBeNull();
    expect(editCommandOf(press('z', { ctrlKey: true, target: prompt }))).toBeNull();
    const slider = document.createElement('input');
    slider.type = 'range';
    expect(editCommandOf(press('ArrowLeft', { target: slider }))).toBeNull();
  });
});
