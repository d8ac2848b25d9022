"""Fresh held-out table questions for the rules search: written from the seed rules text alone (the
Equinox Update, the earlier rulebook and the Battlefields supplement) before the corpus entries and their
``asks`` were read, then given the ids of the entries that answer them (any one counts). Never used to tune
the ranking, its synonyms or its word lists: tuning uses ``rules_questions.py`` and ``rules_questions_dev.py``.

Varied on purpose: terse and long, situational, with typos, slang and card names. Six name entries the corpus
lacked when the set was written (In/Out events, the Mid-Combat step, the combat step list, attached Pre-Combat
abilities, Unique cards, unblockable damage); they were added afterwards, restated from the seeds."""

FRESH: list[tuple[str, tuple[str, ...]]] = [
    ("my ragabash has no paw print on his card, can he still heal up", ("anatomy.paw-print", "regen.set")),
    ("do i lose my rites when i set a guy healing", ("regen.set",)),
    ("can a healing garou vote at the moot", ("regen.restrictions", "moot.who-votes")),
    (
        "another player's moot starts a fight with my regenerating garou, what happens to his healing",
        ("regen.restrictions",),
    ),
    ("how many turns until a regenerating werewolf is back to full health", ("regen.quarter-turns", "regen.upright")),
    ("i already played an ally this main phase, can i still flip someone to regenarate", ("regen.set",)),
    ("can i stack two copies of the same gift on one werewolf", ("anatomy.gifts", "anatomy.rulebook-gifts")),
    (
        "my Rat Spirit ally needs bone gnawers, can it take a gift that only says requires garou",
        ("ground.spirit-ally-gifts",),
    ),
    (
        "does a gift with a pre-combat ability go to the discard after i use it in a fight",
        ("combat.attached-pre-combat",),
    ),
    ("events with the minor rite keyword, do they eat gnosis", ("anatomy.rites",)),
    (
        "can i hit the same character twice in one turn with one event card",
        ("anatomy.events", "anatomy.rulebook-events", "turn.main-play-sept"),
    ),
    ("minimum size of the sept deck", ("deck.sept-deck", "deck.rulebook-sept-deck")),
    ("max copies of any one card in my combat deck", ("deck.combat-deck", "deck.rulebook-combat-deck")),
    (
        "does my combat deck need the same number of new moon and full moon cards",
        ("deck.combat-deck", "deck.rulebook-combat-deck"),
    ),
    (
        "a cub lets me start with a card already in play, does that card still count toward the three copy limit",
        ("deck.sept-deck", "deck.cub-exceptions"),
    ),
    ("what number on the umbral chart does the game begin at", ("umbra.start",)),
    (
        "can i look through the other guy's discard pile and victory pile",
        ("setup.areas-of-play", "setup.rulebook-areas-of-play"),
    ),
    ("my theurge has 1 rage and a card makes him lose 3, where does his rage end up", ("ground.no-negative-rage",)),
    (
        "dave and sarah both play a card that lets them take the first alpha action, who actually goes first",
        ("alpha.first-action-cards", "ground.rulebook-timing-conflicts"),
    ),
    (
        "my garou lost the ahroun keyword after i gave him a klaive that requires ahroun, does the klaive fall off",
        ("ground.attached-stay", "ground.rulebook-attached-stay"),
    ),
    (
        "gift only requires homid but my guy is stuck in war form, can i still attach it",
        ("ground.attach-requirements", "ground.rulebook-attach-requirements"),
    ),
    ("what is a benefit on a card", ("ground.benefits", "ground.combat-benefits")),
    ("can i just chuck cards out of my hand to dig for better ones", ("ground.no-idle-discards",)),
    (
        "my sept deck is empty and a card makes me discard from it",
        ("ground.empty-deck-discards", "ground.rulebook-empty-deck"),
    ),
    (
        "does going into crinos cost me a card",
        ("combat.prepare", "turn.pick-alphas", "turn.alpha-challenge", "ground.no-idle-discards"),
    ),
    (
        "nobody can draw any sept cards anymore, what happens to the game",
        ("victory.level-drops", "conflicts.renown-level-drop-phase", "turn.rulebook-sept-draw-empty"),
    ),
    (
        "when my rite finishes does the garou get his gnosis back",
        ("regen.rite-progress", "anatomy.rulebook-rites", "turn.rulebook-main-rites"),
    ),
    ("can one garou run two rites at the same time", ("regen.rite-progress", "turn.rulebook-main-rites")),
    (
        "the theurge who cast the rite got killed, does the finished rite stay",
        ("regen.rite-progress", "turn.rulebook-main-rites"),
    ),
    ("can my pack keep a second totem out at once", ("anatomy.totems", "turn.main-play-sept")),
    ("is a totem a character", ("anatomy.totems", "turn.main-play-sept")),
    ("where do i put an enemy when i play it", ("turn.main-play-sept", "anatomy.allies-enemies-victims")),
    ("can i use the same main action twice in one phase", ("turn.main-actions", "turn.rulebook-main-actions")),
    ("does playing a sept card count as a main action", ("turn.main-actions", "turn.rulebook-main-actions")),
    ("a moot targets a character, when do i have to say who", ("moot.caller",)),
    ("can my allies vote at moots", ("moot.who-votes", "conflicts.who-may-vote")),
    ("who picks their alpha first once the moots are over", ("turn.pick-alphas",)),
    ("every one of my characters is dead, am i out and can i still win", ("victory.all-removed",)),
    ("everybody got knocked out of the game, who wins", ("victory.all-removed",)),
    (
        "when my alpha attacks a garou sitting in the hunting grounds can the other player say no",
        ("turn.alpha-attack-character",),
    ),
    (
        "i want to take the battlefield another player controls back to the hunting grounds, who can defend it",
        ("turn.alpha-attack-battlefield", "conflicts.battlefield-liberation-defenders"),
    ),
    ("my garou accepted a challenge and survived, does he get his own alpha action after", ("turn.alpha-challenge",)),
    ("a flex played as an attack, which number counts", ("combat.flex",)),
    ("can i play a counterattack when i have initiative", ("combat.card-kinds",)),
    (
        "an attack card has X damage and my guy doesn't meet its requirement, what is X",
        ("combat.damage-effects", "ground.combat-benefits"),
    ),
    ("list the steps of a combat round in order", ("combat.steps",)),
    ("my combat deck runs out halfway through a fight", ("combat.prepare",)),
    ("can my ally who isnt in the fight play an Out combat event", ("combat.in-out-events",)),
    ("can i play an In event when neither of my characters is the hunter or the prey", ("combat.in-out-events",)),
    ("when do mid combat cards get played", ("combat.mid-combat",)),
    ("who gets initative in the second round", ("combat.initiative",)),
    ("the attacker has initiative and passes, what now", ("combat.attack-or-pass",)),
    ("i pick no defence card, what is my block", ("combat.defense-pick",)),
    ("i've got 1 rage left, can my guy play a rage 2 card", ("combat.pay-rage",)),
    ("attack does 4 and my block is 2, how many wounds do i take", ("combat.apply-damage",)),
    ("a counterattack would kill both fighters, who dies first", ("combat.fast-slow",)),
    ("opponent's defence says i can react to this damage, can i counterattack", ("combat.react-to-damage",)),
    (
        "my homid takes more wounds than his breed health, is he dead",
        ("combat.crinos-flip", "conflicts.crinos-flip-threshold", "combat.rulebook-crinos-flip"),
    ),
    ("my manic-depressive garou was alpha last turn, can he be alpha again", ("abilities.derangements",)),
    ("obsessive alpha declared an attack but the target died before his turn", ("abilities.derangements",)),
    ("crinos health 5, how much damage in a round makes him go berserk", ("frenzy.trigger-damage",)),
    ("insight 2, how many cards do i draw before the fight", ("combat.insight",)),
    (
        "umbra at level 4 and my alpha has gnosis 5, how many cards to step sideways",
        ("umbra.gnosis-modifier", "umbra.level-discard"),
    ),
    (
        "right before my alpha acts i want to jump him into the umbra, does his gnosis make it cheaper",
        ("umbra.last-minute",),
    ),
    ("can my alpha in the umbra attack a victim out in the real world", ("places.umbra-same-side-targets",)),
    ("a battlefield card has a paragraph starting with neutral, when does it work", ("abilities.battlefield-text",)),
    ("i held a battlefield the whole turn, how do i cash it in for renown", ("turn.reclaim-lost-lands",)),
    (
        "can i start with a bastet worth more renown than my own tribe's garou",
        ("deck.alternate-shapeshifters", "deck.rulebook-alternate-shapeshifters"),
    ),
    ("a unique card got killed, can i play another copy", ("ground.unique",)),
    ("can anything stop unblockable damage", ("combat.unblockable-damage", "conflicts.unblockable-term")),
    ("can i bring my other pack members along when my alpha attacks a battlefield", ("battlefield-play.attackers",)),
    ("nobody defends the battlefield, how tough are its own defenders", ("battlefield.self-defence",)),
    ("someone exorcises the battlefield defenders, is the battlefield destroyed", ("battlefield-faq.exorcise-spirit",)),
    ("can the other players throw gifts on the battlefield defenders", ("battlefield.self-defence",)),
    ("the battlefield defenders survive, what happens to the damage on them", ("battlefield.self-defence",)),
    ("can i buy undodgeable for the battlefield defenders", ("battlefield-faq.undodgeable-unblockable",)),
    (
        "battlefield has garou and human keywords, am i fighting more than one creature, can i use gang beating",
        ("battlefield-faq.one-creature",),
    ),
    ("the battlefield runs away with run like hell, what do i get", ("battlefield-faq.escape",)),
    (
        "my spirit alpha attacks a battlefield, which side of the gauntlet is the fight on",
        ("battlefield-play.gauntlet",),
    ),
    (
        "in a battlefield fight can my two attackers use taking the death blow on each other",
        ("battlefield-play.away-from-pack",),
    ),
    ("i have 9 cards but my sept draw is 7", ("turn.sept-draw",)),
    ("two tribes have the same fury, who sits first", ("alpha.fury-ties",)),
]
