"""The `stkit char` command group and `stkit log`: a character's sheet, creation, growth, arms, powers and
printing, one module per part."""
