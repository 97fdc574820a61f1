/**
 * Vocabulary for realistic names. Every word uses only characters whose P919 table value is verified (letters,
 * digits, `_`), so every generated name hashes with the default table.
 */

/** Top-level category names (the real database has 134, e.g. AI, Combat, Faction, Inventory, Quest, Interface). */
export const TOP_LEVEL = [
  'AI', 'Ability', 'Achievement', 'Animation', 'AnimCurve', 'Armor', 'Army', 'Audio', 'AudioHooks', 'Balrog', 'Banner',
  'Behavior', 'BehaviorSource', 'Bestiary', 'Camera', 'Character', 'Cinematic', 'Client', 'Codex', 'Collectible',
  'Combat', 'Companion', 'Conversation', 'Crafting', 'Credits', 'Damage', 'Debug', 'Decal', 'Dialogue', 'Difficulty',
  'Dominate', 'Drake', 'Economy', 'Effects', 'Encounter', 'Equipment', 'Event', 'Execution', 'Faction', 'FellBeast',
  'Follower', 'Fortress', 'Gameplay', 'Gear', 'Ghul', 'Graug', 'Haptics', 'Health', 'Hierarchy', 'Horde', 'Input',
  'Interaction', 'Interface', 'Inventory', 'Item', 'Legendary', 'Lighting', 'Loot', 'Lore', 'Map', 'Market', 'Material',
  'Memory', 'Mission', 'Mount', 'Movement', 'Music', 'Nemesis', 'Navigation', 'Online', 'Orc', 'Outpost', 'Overlord',
  'Particle', 'Perception', 'Perk', 'Photo', 'Physics', 'Player', 'Profile', 'Progression', 'Projectile', 'Prop',
  'Quest', 'Ragdoll', 'Region', 'Reward', 'Rumble', 'Rune', 'Save', 'Script', 'Sense', 'Settings', 'Shadow', 'Siege',
  'Skill', 'Social', 'Sound', 'Spawn', 'Speech', 'Stat', 'Status', 'Stealth', 'Story', 'Stronghold', 'Subtitle',
  'Targeting', 'Telemetry', 'Terrain', 'Throne', 'Tribe', 'Trigger', 'Troll', 'Tutorial', 'Upgrade', 'Vendetta',
  'Vehicle', 'Video', 'Warg', 'Weapon', 'Weather', 'Wildlife', 'World', 'WorldUI', 'Wraith', 'Zone', 'Nazgul',
  'Olog', 'Uruk', 'Spider', 'Caragor', 'Graveyard', 'Monument', 'Bounty', 'Challenge',
] as const;

/** Second-level words (category leaf names, pluralised by use). */
export const LEAF = [
  'Templates', 'Attack', 'Attacks', 'Items', 'Quests', 'Objectives', 'Shared', 'ElementSetup', 'Definition', 'Roles',
  'Definitions', 'PlayerMovement', 'Settings', 'Data', 'Groups', 'Sets', 'Tables', 'Rules', 'Modifiers', 'Traits',
  'Perks', 'Rewards', 'Events', 'Conditions', 'Presets', 'Variants', 'Hooks', 'Layers', 'Profiles', 'States',
  'Transitions', 'Prompts', 'Icons', 'Sounds', 'Effects', 'Links', 'Nodes', 'Graphs', 'Curves', 'Weights', 'Pools',
  'Tiers', 'Levels', 'Costs', 'Slots', 'Categories', 'Archetypes', 'Abilities', 'Moves', 'Reactions', 'Responses',
  'Lines', 'Barks', 'Scenes', 'Shots', 'Cameras', 'Lights', 'Colors', 'Palettes', 'Materials', 'Textures', 'Meshes',
  'Skeletons', 'Bones', 'Sockets', 'Props', 'Spawners', 'Waves', 'Squads', 'Formations', 'Orders', 'Tactics',
  'Behaviors', 'Senses', 'Stimuli', 'Alerts', 'Threats', 'Targets', 'Filters', 'Queries', 'Tags', 'Keywords', 'Names',
  'Titles', 'Strengths', 'Weaknesses', 'Immunities', 'Resistances', 'Buffs', 'Debuffs', 'Statuses', 'Timers',
  'Cooldowns', 'Damage', 'Impacts', 'Hits', 'Combos', 'Chains', 'Finishers', 'Executions', 'Counters', 'Dodges',
  'Blocks', 'Parries', 'Stuns', 'Knockbacks', 'Projectiles', 'Volumes', 'Regions', 'Zones', 'Paths', 'Routes',
  'Markers', 'Objects', 'Outfits', 'Heads', 'Bodies', 'Weapons', 'Shields', 'Mounts', 'Banners', 'Runes', 'Gems',
  'Recipes', 'Vendors', 'Offers', 'Bundles', 'Chests', 'Drops', 'Tables', 'Odds', 'Scaling', 'Difficulty',
  'Analog', 'Buttons', 'Bindings', 'Mappings', 'Widgets', 'Screens', 'Menus', 'Tooltips', 'Messages', 'Tutorials',
] as const;

/** Words for CamelCase field names (e.g. BaseSpeedMultiplier, AimingRadiusScale, CharacterModel, CombatProp). */
export const FIELD_WORDS = [
  'Base', 'Speed', 'Multiplier', 'Aiming', 'Radius', 'Scale', 'Character', 'Model', 'Combat', 'Prop', 'Fall', 'Damage',
  'Min', 'Max', 'Height', 'Player', 'Yaw', 'Interpolate', 'Time', 'Start', 'End', 'Outer', 'Inner', 'Key', 'Name',
  'Attach', 'Offset', 'Rotation', 'Smooth', 'Shutdown', 'Intensity', 'Color', 'Emission', 'Rate', 'Type', 'Wind',
  'Falloff', 'Velocity', 'Material', 'Icon', 'Description', 'Display', 'Title', 'Level', 'Tier', 'Cost', 'Value',
  'Weight', 'Chance', 'Count', 'Delay', 'Duration', 'Cooldown', 'Range', 'Angle', 'Distance', 'Force', 'Impulse',
  'Health', 'Might', 'Focus', 'Stamina', 'Armor', 'Resist', 'Bonus', 'Penalty', 'Target', 'Source', 'Owner', 'Parent',
  'Child', 'Anim', 'Sound', 'Effect', 'Fx', 'Camera', 'Shake', 'Blend', 'Fade', 'In', 'Out', 'On', 'Off', 'Enabled',
  'Visible', 'Hidden', 'Allow', 'Block', 'Require', 'Use', 'Override', 'Default', 'Random', 'Curve', 'Ease', 'Loop',
  'Priority', 'Group', 'Set', 'List', 'Table', 'Entry', 'Slot', 'Socket', 'Bone', 'Mesh', 'Texture', 'Audio', 'Event',
  'Trigger', 'Condition', 'Reward', 'Item', 'Quest', 'Objective', 'Faction', 'Role', 'Rank', 'Trait', 'Strength',
  'Weakness', 'Ability', 'Skill', 'Perk', 'Rune', 'Gem', 'Attack', 'Hit', 'Reaction', 'Stun', 'Knockback', 'Ragdoll',
  'Spawn', 'Despawn', 'Region', 'Zone', 'Path', 'Point', 'Marker', 'Volume', 'Prompt', 'Widget', 'Screen', 'Text',
  'Loc', 'Id', 'Index', 'Mask', 'Flags', 'Mode', 'State', 'Stage', 'Phase', 'Step', 'Threshold', 'Limit', 'Factor',
  'Ratio', 'Percent', 'Amount', 'Size', 'Width', 'Length', 'Depth', 'Alpha', 'Tint', 'Glow', 'Light', 'Shadow',
] as const;

/** Words for record names (e.g. Default, Player, Balrog, Warg, Troll, FellBeast, Orc_Captain_Berserker_03). */
export const RECORD_WORDS = [
  'Orc', 'Uruk', 'Olog', 'Captain', 'Warchief', 'Overlord', 'Berserker', 'Hunter', 'Defender', 'Assassin', 'Archer',
  'Marauder', 'Destroyer', 'Slayer', 'Tracker', 'Shaman', 'Brute', 'Grunt', 'Bodyguard', 'Spy', 'Talion', 'Celebrimbor',
  'Eltariel', 'Shelob', 'Nazgul', 'Witch', 'King', 'Sauron', 'Gollum', 'Baranor', 'Idril', 'Carnan', 'Bruz', 'Ratbag',
  'Ghul', 'Caragor', 'Graug', 'Drake', 'Spider', 'Wraith', 'Mordor', 'Gorgoroth', 'Nurnen', 'Seregost', 'Cirith',
  'Ungol', 'Minas', 'Ithil', 'Morgul', 'Feral', 'Dark', 'Machine', 'Mystic', 'Outlaw', 'Terror', 'Warmonger', 'Marauder',
  'Slaughter', 'Iron', 'Fire', 'Frost', 'Poison', 'Curse', 'Blade', 'Sword', 'Dagger', 'Bow', 'Axe', 'Hammer', 'Spear',
  'Shield', 'Armor', 'Cloak', 'Helm', 'Ring', 'Gem', 'Rune', 'Combo', 'Heavy', 'Light', 'Quick', 'Charged', 'Aerial',
  'Ground', 'Mounted', 'Stealth', 'Execution', 'Finisher', 'Counter', 'Dodge', 'Vault', 'Climb', 'Jump', 'Land',
  'Idle', 'Walk', 'Run', 'Sprint', 'Attack', 'Hit', 'React', 'Stagger', 'Death', 'Spawn', 'Ambush', 'Betrayal',
  'Revenge', 'Rescue', 'Duel', 'Fight', 'Pit', 'Siege', 'Fortress', 'Gate', 'Wall', 'Tower', 'Throne', 'Camp',
  'Patrol', 'Hunt', 'Feast', 'Recruit', 'Trial', 'Ambient', 'Intro', 'Outro', 'Loop', 'Start', 'End', 'Low', 'Mid',
  'High', 'Epic', 'Legendary', 'Rare', 'Common', 'Small', 'Large', 'Left', 'Right', 'Front', 'Back', 'Up', 'Down',
] as const;

/** Path segments and extensions for resource paths (type 0x44). */
export const PATH_FOLDERS = [
  'gameobjects', 'characters', 'orc', 'uruk', 'olog', 'human', 'creatures', 'caragor', 'graug', 'drake', 'weapons',
  'armor', 'props', 'environment', 'mordor', 'nurnen', 'seregost', 'minasithil', 'cirithungol', 'fx', 'impacts',
  'abilities', 'ui', 'icons', 'hud', 'materials', 'textures', 'skeletons', 'anims', 'cinematics', 'video', 'audio',
  'landmines', 'fortress', 'siege', 'banners', 'gear', 'runes', 'shared', 'common', 'lod', 'vfx', 'decals',
] as const;
