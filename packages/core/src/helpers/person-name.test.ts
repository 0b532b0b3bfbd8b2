import { describe, expect, it } from 'vitest';
import { isSurnameFirst, personDisplayName } from './person-name.ts';

describe('personDisplayName', () => {
  it('puts the surname first without a space in Chinese', () => {
    expect(personDisplayName({ name: '三', surname: '张', userName: 'zhangsan' }, 'zh-CN')).toBe('张三');
    expect(personDisplayName({ name: '小明', surname: '欧阳', userName: 'x' }, 'zh-Hant')).toBe('欧阳小明');
  });

  it('puts the given name first with a space in English', () => {
    expect(personDisplayName({ name: 'Ann', surname: 'Lee', userName: 'ann' }, 'en-US')).toBe('Ann Lee');
  });

  it('keeps a name written in CJK script in its own order in every culture', () => {
    expect(personDisplayName({ name: '三', surname: '张' }, 'en-US')).toBe('张三');
  });

  it('orders a Latin-script name by the culture', () => {
    expect(personDisplayName({ name: 'Ann', surname: 'Lee' }, 'zh-CN')).toBe('Lee Ann');
    expect(personDisplayName({ name: 'Ann', surname: '李' }, 'en-US')).toBe('Ann 李');
  });

  it('shows one part alone, and the user name when there is no name', () => {
    expect(personDisplayName({ name: '三', surname: '', userName: 'zs' }, 'zh-CN')).toBe('三');
    expect(personDisplayName({ name: ' ', surname: 'Lee', userName: 'zs' }, 'en-US')).toBe('Lee');
    expect(personDisplayName({ name: '', surname: null, userName: 'zs' }, 'zh-CN')).toBe('zs');
    expect(personDisplayName({}, 'zh-CN')).toBe('');
  });

  it('knows which cultures write the surname first', () => {
    expect(['zh-CN', 'zh', 'ja-JP', 'ko', 'ZH-hant', 'vi-VN'].every(isSurnameFirst)).toBe(true);
    expect(['en-US', 'th', 'my', 'zhx', ''].some(isSurnameFirst)).toBe(false);
  });
});
