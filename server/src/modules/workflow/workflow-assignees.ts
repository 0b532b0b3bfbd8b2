/**
 * Who a node's task goes to (approval) or who is told (CC), from the node's assignee rules:
 *   user            the listed users (active ones)
 *   role            the roles' members
 *   unit            the units' members (and of the units below with includeSubUnits)
 *   initiatorLeader the leader of the initiator's unit (level 1) or of the unit N−1 levels above it
 *   initiator       the initiator
 *   formField       the user ids the record's picker control holds
 *   chosenAtSubmit  the users the initiator chose for this node when submitting
 * The union, without duplicates, in rule order.
 */
import type { TAssignee } from '@tessera/core/contracts/workflow';
import type { Db } from '../../platform/context.ts';
import { activeMembersOfRoles, activeMembersOfUnits, activeUserIds, unitLeaderChain } from '../identity/index.ts';

export interface AssigneeScope {
  nodeId: string;
  initiatorId: string;
  initiatorUnitId: string | null;
  /** The record's master values (formField). */
  master: Record<string, unknown>;
  chosen: Record<string, string[]>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** User ids a picker value holds: a user id, a list of them, or ids separated by commas. */
export function userIdsOfValue(value: unknown): string[] {
  const parts = Array.isArray(value) ? value.map((v) => (typeof v === 'object' && v && 'id' in v ? String((v as { id: unknown }).id) : String(v))) : typeof value === 'string' ? value.split(',') : [];
  return parts.map((p) => p.trim().toLowerCase()).filter((p) => UUID.test(p));
}

export async function resolveAssignees(db: Db, rules: readonly TAssignee[], scope: AssigneeScope): Promise<string[]> {
  const out: string[] = [];
  const add = (ids: readonly string[]) => {
    for (const id of ids) if (!out.includes(id)) out.push(id);
  };
  for (const rule of rules) {
    switch (rule.kind) {
      case 'user':
        add(rule.userIds.length ? await activeUserIds(db, rule.userIds) : []);
        break;
      case 'role':
        add(await activeMembersOfRoles(db, rule.roleIds));
        break;
      case 'unit':
        add(await activeMembersOfUnits(db, rule.unitIds, rule.includeSubUnits === true));
        break;
      case 'initiatorLeader': {
        if (!scope.initiatorUnitId) break;
        const chain = await unitLeaderChain(db, scope.initiatorUnitId);
        const leader = chain[rule.level - 1]?.leaderUserId;
        if (leader) add(await activeUserIds(db, [leader]));
        break;
      }
      case 'initiator':
        add([scope.initiatorId]);
        break;
      case 'formField': {
        const ids = userIdsOfValue(scope.master[rule.controlCode]);
        add(ids.length ? await activeUserIds(db, ids) : []);
        break;
      }
      case 'chosenAtSubmit': {
        const ids = scope.chosen[scope.nodeId] ?? [];
        add(ids.length ? await activeUserIds(db, ids) : []);
        break;
      }
    }
  }
  return out;
}
