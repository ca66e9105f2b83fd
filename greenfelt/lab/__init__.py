"""The simulation lab: bots playing many games, statistics, comparisons, plots."""
