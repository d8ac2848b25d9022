"""The Rage card game adjudicator: rules corpus (rules.py), cards (cards.py, db.py), deck legality (deck.py)
and the resolvers. Import-light on purpose: import the sub-module you need."""
