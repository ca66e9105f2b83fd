// What changed at a table's seats, told in the table talk: who sat down, which seat
// went to a bot, who is away with a bot standing in, who came back.

/** Lines for the change from seats ``before`` to ``after`` (the server's public seats). */
export function seatNews(before, after, me) {
  if (!before || !after) return [];
  const out = [];
  for (const s of after) {
    const was = before.find((b) => b.seat === s.seat);
    if (!was) continue;
    const mine = s.seat === me;
    if (!was.taken && s.taken) {
      out.push(s.bot ? `Seat ${s.seat + 1} went to the ${s.name}.` : `${mine ? "You" : s.name} took seat ${s.seat + 1}.`);
    } else if (s.taken && !s.bot) {
      if (!was.stand_in && s.stand_in) out.push(mine ? "You are away: a bot plays for you." : `${s.name} is away: a bot plays for them.`);
      else if (was.stand_in && !s.stand_in) out.push(mine ? "You are back." : `${s.name} is back.`);
      else if (!mine && was.connected && !s.connected) out.push(`${s.name} lost the connection.`);
      else if (!mine && !was.connected && s.connected) out.push(`${s.name} is connected again.`);
    }
  }
  return out;
}
