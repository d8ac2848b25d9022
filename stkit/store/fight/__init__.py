"""The fight on the store, one use case a module, each taking the gateway first:

- ``initiative``: who acts when on the open scene's turn, who has acted, Rage spent for extra actions;
- ``attack``: a whole attack, step by step (attack roll, dodge, block or parry, damage, soak);
- ``hit``: damage and soak rolled from a sheet for their purpose, one hit taken;
- ``night``: a fight night's other use cases: regeneration, shifting, staying active past Incapacitated,
  Rage and frenzy, the fight board;
- ``rules``: the fight rules as functions of a sheet (who soaks what, weapons and maneuvers, the powers
  used in a turn) and the fight's state in the store;
- ``fates``: whether a character is dead.
"""
