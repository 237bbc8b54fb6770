import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../../main/core/engine/group-commit.ts';
import { writeScopes, type WriteScopes } from '../../../main/core/store/transaction.ts';
import { captureLogger } from '../../support/capture-logger.ts';

/** Stand-in scopes that record which writes committed together (savepoints are plain calls). */
function recorder() {
  const commits: string[][] = [];
  let open: string[] | null = null;
  const scopes: WriteScopes = {
    transaction(fn) {
      open = [];
      try {
        fn();
        commits.push(open);
      } finally {
        open = null;
      }
    },
    savepoint: (fn) => fn(),
  };
  const write = (name: string) => () => {
    open!.push(name);
  };
  return { commits, transaction: scopes, write };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('commits the urgent writes of one turn together, at the end of that turn', async () => {
    const { commits, transaction, write } = recorder();
    const group = new GroupCommit(transaction, 50);
    const done = [group.add(write('a')), group.add(write('b'))];
    expect(commits).toEqual([]);
    await Promise.all(done);
    expect(commits).toEqual([['a', 'b']]);
  });

  it('lets a lazy write wait for company, and ride along with the next urgent commit', async () => {
    const { commits, transaction, write } = recorder();
    const group = new GroupCommit(transaction, 50);
    const lazy = group.add(write('done-mark'), { lazy: true });
    await nextTurn();
    expect(commits).toEqual([]); // still waiting: no commit of its own yet
    await Promise.all([lazy, group.add(write('outcome'))]);
    expect(commits).toEqual([['done-mark', 'outcome']]);
  });

  it('hurry(): a lazy write waiting commits at the end of this turn, not after its delay', async () => {
    const { commits, transaction, write } = recorder();
    const group = new GroupCommit(transaction, 60_000);
    const claim = group.add(write('claim'), { lazy: true, last: true });
    await nextTurn();
    expect(commits).toEqual([]);
    group.hurry();
    await nextTurn();
    expect(commits).toEqual([['claim']]);
    await claim;
  });

  it('commits a lone lazy write after its delay', async () => {
    const { commits, transaction, write } = recorder();
    const group = new GroupCommit(transaction, 5);
    await group.add(write('done-mark'), { lazy: true });
    expect(commits).toEqual([['done-mark']]);
  });

  it('rolls a failing write back alone, in its savepoint: the others commit together, none runs twice', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (name TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO t (name) VALUES (?)');
    const runs: string[] = [];
    const write =
      (name: string, fails = false) =>
      () => {
        runs.push(name);
        insert.run(name);
        if (fails) throw new Error(`${name} refused`);
      };
    const group = new GroupCommit(writeScopes(db));
    const results = await Promise.allSettled([
      group.add(write('a')),
      group.add(write('bad', true)),
      group.add(write('c')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ message: 'bad refused' });
    expect(runs).toEqual(['a', 'bad', 'c']);
    // bad's own insert is rolled back with its savepoint; a and c share one commit
    expect(db.prepare('SELECT name FROM t ORDER BY rowid').pluck().all()).toEqual(['a', 'c']);
    db.close();
  });

  it.each(['SQLITE_FULL', 'SQLITE_READONLY', 'SQLITE_IOERR_WRITE'])(
    "fails the whole group on %s, the disk's failure and not one write's: none is redone alone",
    async (code) => {
      // The disk has room for a small write (a claim) but not for the group: redone alone, the
      // claim would commit and send new requests while the answers before it are lost.
      let transactions = 0;
      const commits: string[][] = [];
      let open: string[] = [];
      const transaction: WriteScopes = {
        transaction(fn) {
          transactions++;
          open = [];
          fn();
          if (open.length > 1 || open.includes('answer')) {
            throw Object.assign(new Error('database or disk is full'), { code });
          }
          commits.push(open);
        },
        savepoint: (fn) => fn(),
      };
      const write = (name: string) => () => {
        open.push(name);
      };
      const group = new GroupCommit(transaction);
      const results = await Promise.allSettled([
        group.add(write('answer')),
        group.add(write('claim'), { last: true }),
      ]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      for (const result of results) {
        expect((result as PromiseRejectedResult).reason).toMatchObject({ code });
      }
      expect(transactions).toBe(1);
      expect(commits).toEqual([]);
    },
  );

  it('does not commit, inside a running commit, the writes queued behind it', async () => {
    const { commits, transaction, write } = recorder();
    const group = new GroupCommit(transaction);
    let inner: Promise<void> | null = null;
    await group.add(() => {
      write('first')();
      inner = group.add(write('second'));
      group.flush(); // e.g. a progress report asking for fresh counts
    });
    await inner;
    expect(commits).toEqual([['first'], ['second']]);
  });

  it('runs a `last` write after the others of its group, whenever it was added', async () => {
    const { commits, transaction, write } = recorder();
    const group = new GroupCommit(transaction);
    await Promise.all([
      group.add(write('claim'), { last: true }),
      group.add(write('outcome-1')),
      group.add(write('outcome-2')),
    ]);
    expect(commits).toEqual([['outcome-1', 'outcome-2', 'claim']]);
  });

  it('runs what a write returns right after its commit, before anyone hears of the commit', async () => {
    const events: string[] = [];
    const group = new GroupCommit({
      transaction(fn) {
        fn();
        events.push('commit');
      },
      savepoint: (fn) => fn(),
    });
    const done = group.add(() => {
      events.push('write');
      return () => events.push('after');
    });
    group.flush();
    // synchronously: nothing (a cancel, another claim) can run between the commit and `after`
    expect(events).toEqual(['write', 'commit', 'after']);
    await done;
  });

  it('keeps scheduling when the batch limit is reached during a commit', async () => {
    const { commits, transaction, write } = recorder();
    const group = new GroupCommit(transaction, 5, 2);
    let late: Promise<void>[] = [];
    await group.add(() => {
      write('first')();
      late = [group.add(write('x')), group.add(write('y')), group.add(write('z'))];
    });
    await Promise.all(late);
    expect(commits.flat()).toEqual(['first', 'x', 'y', 'z']);
  });
  it('tells onCommit after each transaction that committed, once its follow-ups ran', async () => {
    const events: string[] = [];
    let refuse = false;
    const scopes: WriteScopes = {
      transaction(fn) {
        if (refuse) throw new Error('database is locked');
        fn();
        events.push('commit');
      },
      savepoint: (fn) => fn(),
    };
    const group = new GroupCommit(scopes, 5, 256, { onCommit: () => events.push('onCommit') });
    await group.add(() => () => events.push('after'));
    expect(events).toEqual(['commit', 'after', 'onCommit']);
    refuse = true;
    await expect(group.add(() => {})).rejects.toThrow('database is locked');
    // a transaction that failed committed nothing: no one is told
    expect(events).toEqual(['commit', 'after', 'onCommit']);
  });

  it('says on its logger when work after a commit fails; the commit stands', async () => {
    const { commits, transaction, write } = recorder();
    const { logger, lines } = captureLogger();
    const group = new GroupCommit(transaction, 5, 256, { log: logger });
    const done = group.add(() => {
      write('a')();
      return () => {
        throw new Error('boom');
      };
    });
    await done;
    expect(commits).toEqual([['a']]);
    expect(lines).toMatchObject([{ level: 'error', message: 'work after a commit failed:' }]);
    expect((lines[0]!.details[0] as Error).message).toBe('boom');
  });
});
