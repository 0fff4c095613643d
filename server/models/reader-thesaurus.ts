import { createHash } from 'node:crypto';

/**
 * The reader's thesaurus: words a reader of today types, each with the words the book uses for the
 * same idea ("afterlife" → hereafter, next world; "mindfulness" → recollection, contemplation;
 * "journaling" → reckoning, account). Written by reading the book, each half twice (ideas and
 * names first; then everyday words, feelings, plain words for the book's learned ones, and the
 * parables as a reader half remembering them would name them), never from the evaluation
 * questions or from any model's output; every book word in it occurs in the book's passages.
 * WordNet knows a spouse is a wife; it does not know that the book's "next world" is a reader's
 * afterlife. A query word counts for the book's words of its entry (`glossary` in lineup.ts: 0.7
 * for a word the book uses itself, in full for one it never uses). One entry a line: the
 * reader's word, a tab, the book's words.
 */
export const READER_THESAURUS = `
abandon	deserts runaway neglect
abusive	harshly strike wound
acceptable	lawful permitted laudable
acceptance	resigned
accident	random jest accidental
accountability	account judgment rewarded punished reckoning balance responsibility
achieve	attain attainment accomplishing
addict	habit craving indulgence lust
addiction	habit lust appetites indulgence thirst lusts intoxicated
admiration	love noble excellences
adoration	love worship
adultery	unchaste sin
adversity	illness sickness trouble sorrow
advice	consult guide guides
advisor	vizier minister guide
afraid	dread terrors
afterlife	hereafter next world future life eternity eternal
aggression	anger ferocious fighting harshness
agnostic	doubt doubtful mystery
alcohol	wine intoxicated
alhamdulillah	praise exclamations
alimony	present maintenance
allah	god lord almighty
allegory	parable symbolised
allowance	money maintenance supplied
allowed	lawful
altruism	disinterested
amateur	smattering adept experiments
amazing	wonderful marvels amazed wonder
ambition	plans striving endeavour
amulet	charm neck
analogy	figure figured compared likeness
anatomy	frame structure organs body
ancestry	stock
animalistic	animal beasts brutes sensual
annihilation	annihilated destroy
annoy	annoyance vex vexed
annoyed	anger resentment temper upset
anxiety	dread terrors sorrow trouble fear cares terror
anxious	dread trouble fear cares alarmed
apartment	dwelling lodging shelter
apocalypse	resurrection judgment
appearance	shape face outward beauty form complexions
appreciate	grateful ingratitude
archery	archers shooting match
ardor	ardour
argument	scolded
army	campaign war soldiers
aroma	scents perfume odour
arouse	aroused rouse stir incite
arrogance	boasted superior sanctity claim pride overweening
arrogant	boasted superior claim sanctity
artwork	works handwriting composes
ascetic	austerity abstinence faqirs austerities
asceticism	abstinence austerity seclusion austerities self discipline
ashamed	disgrace chagrin disgraced
asleep	sleep sleeping
astrology	astrologer planets conjunction stars
astronomy	astronomer stars planets skies
atheism	unbelief ignorance error infidels
atheist	unbelievers unbeliever infidels physicists infidel deny
attachment	cleave entangled love attached affection ties entanglements clave
attention	inattention attend heed
attractive	beauty beautiful charm fair
audience	auditors hearers spectators
audit	reckoning account
authentic	sincerity sincere real
authenticity	genuineness genuine sincerity
avatar	incarnation descent deity
avenge	vengeance
awake	waking
awakening	conversion knowledge light wakes enlightened insight
awareness	conscious consciousness perception knowledge aware watchful
awe	wonder marvel amazed majesty greatness
awesome	majesty greatness wonder
baby	child children suckling born
bachelor	single celibate marry
backbiting	slandered
baghdad	bagdad
balance	proportion limits sufficient
band	minstrels drums pipe
banquet	table viands dishes guests
barefoot	feet wounded bleeding
barrier	veil curtain obstacles
basics	necessities needs food clothing shelter
beastly	beasts brutes animal
beatific	vision felicity
bedroom	chamber
bee	wasp sting
beginner	aspirant disciple
behavior	character deeds qualities habit
behaviour	character deeds qualities habit
believer	faithful moslem faith
bereavement	bereft separation sorrow dirges
bet	chance stake benefit doubt
betray	deceitful enemies deceit
bias	prejudice
bible	psalms
bidah	novelties
binge	gorged repletion indulged indulgence greedily
biography	lives saints
birdsong	singing birds melodious bird
birth	born created drop
bitter	bitterness resentment grudge
blank	erase pure unspotted
blasphemy	extravagant utterances
blindfold	blind touch
bliss	beatitude delight happiness joy felicity paradise
blocked	veil curtain hindrance
boat	ship captain passengers board voyages
bond	affinity ties
bondage	thraldom slave captive
bookkeeping	reckoning account
boomerang	rebounding stones
booze	wine drunkenness intoxicated
bored	distaste interest indifference lukewarm sluggish dulled relish
boredom	lukewarm sluggish dulled
boss	master king authority
bossy	imperious
brag	boasted claim applause boast
brainwash	prejudice dogmatic parents
brave	fear lion
breadwinner	livelihood support family
breakup	divorce separation parting divorced farewell
bug	ant wasp
bully	tyranny harshness ferocious
burial	ground dust death buried graves
burnout	toil troublesome energy lukewarm sluggish exhaustion
burqa	concealment secluded
calligraphy	pen letters written writer
car	vehicle steed riding camel
career	occupation occupations business livelihood post authority ambition
cash	gold silver sixpence wealth
castle	fortress fort
causation	causes cause effects
celebration	festival feast celebrate
celebrity	fame notoriety applause
celibacy	celibate single marry
cemetery	graves mortuary
chant	recital reciting songs exclamations repetition phrases ejaculations
charlatan	pseudo pretensions babblers pretend
cheat	deceit guile deceitful
cheating	unchaste deceit
cheerful	smiling joy delight
chemistry	alchemy alchemists
chew	mastication teeth
chicken	fowl
childhood	child personality identical
childless	barren
china	chinese
choice	choose free burden responsibility
chores	cook wash dishes sweep
church	mosque
clairvoyance	intuitions window unseen foreshadowings
clarity	clear mirror pure polishing
clean	pure purify polishing washing
cleanse	purify purged polishing washing purified clean
clergy	divines theologians
cleric	theologians learned doctors
climate	weather heat cold moist dryness
cling	cleave entangled attached
closeness	proximity nearer intimacy affinity
clothes	clothing apparel
coach	director counsel
coat	clothing warm winter cold
cocky	pride overweening presumption
cognition	cognisance perception cognitive
coincidence	random accidental
collapse	fell senseless lifeless
cologne	perfumes scents
color	colour colours
colorful	coloured colours brilliantly
comfort	relief refuge relaxation ease comfortable soothe
commandment	command law commanded
commendable	laudable meritorious merit
commitment	cleave diligent
community	assembly gatherings
compassion	mercy tender merciful love beneficence kindness
compatibility	disposition character
complacent	stationary heedless satisfaction
concentration	concentrates concentrate watch fixity absorbed
concert	music singing assembly
conditioning	beaten stick dog experimental
conflict	quarrels strife disputes
congregation	assembly worshippers
connection	affinity relationship
conscience	conscientiousness heart reason discrimination
consciousness	senses perception personality
consequence	punishment reward result effect
consequences	punishment rewarded punished misery character
consumerism	possessions world worldly pleasures abundance
contagious	contagion
contentment	content sufficient satisfaction resigned
contest	challenged trial skill painters
control	curbing restrain subdue master
convulsion	contortions
cop	police officer
cope	perseverance restrain bear endure patiently trials
core	essence essential
corrupted	rust befouled degenerate
corruption	unlawful means livelihood
cosmos	universe creation heaven stars
counselor	guide consult guides
courtship	seeing marriage
cousin	related stock
crave	craving desire longing appetite lust
craving	appetites desire longing lusts
crazy	madden folly foolish
cringe	shame abashed
criticize	rebuke fault
crone	hag witch
cruel	harshness severity ferocious tyranny
cruise	ship passengers island
crusade	war infidels campaign
cry	bewailed sorrow grief
cult	sect
custom	customs usages habits
dad	father
daily	day morning evening
damnation	hell perdition misery punished doom torment
dancer	dancing dance
dating	seeing marriage woman
dead	death perish dust ground
deadbeat	deserts runaway neglect
deadline	breaths allotted fixed
deaf	ear insusceptible hearing
deathbed	death bed
debate	argue arguing dispute
deceased	dead departed
deceitful	deceit treacherous deceive cajole
deception	deceit guile deceitful
dedication	devotion diligent
demon	devil devils satan demonic
denial	deny denies
denomination	sect
depressed	depression melancholy sorrow
depression	despair sorrow
dervish	sufi sufis dancing
desensitized	dulled familiar repetition hard
design	contrivance wisdom adaptation adaptability construction
designer	creator maker contrivance wisdom
desperate	despair hopeless
destination	end journey object aim
destiny	doom allotted appointed
detachment	aloof abstinence turning disengaged weaned faqirs
determinism	decrees fate destiny causes
detox	purified purged weaned abstinence
devil	satan satanic
devilish	demonic devils satanic
devotee	lover worshippers servant
devout	piety devotion faithful pious
dhikr	remembrance recollection
diagnosis	doctor prescription melancholy case
diamond	jewels rubies emeralds
diary	reckoning account recording
die	death perish dies departs dead departed expired perishes
diet	food feeding eating regime
digestion	mastication deglutition food
dignity	greatness value noble honour
dimension	space time quantity size
dinner	eat meal food
dirty	dirt befouled contaminated soiled filth defiled
disagreement	disputes quarrels
disappointed	disappointment chagrin failure
disappointment	disappointed chagrin
disapproval	displeasure disapproves
discernment	discriminate discrimination discern
discreet	secrets reveal
disgusting	nauseous repulsive hideous filth odour
dishonest	deceit lying treacherous
dislike	distaste hatred
disobey	disobedience transgress rebel
disrespectful	blasphemy frivolous
distract	engross entangled trifles
distraction	engross entangled trifles vanities inattention heedless hindrance
divinity	god divine deity
divorcee	divorced married previously
doctor	physician medicine
dogma	dogmatic prejudice orthodox creed traditional belief hearsay
donate	alms charity
donkey	ass burden horse
doom	perdition destruction ruin perish
doomsday	judgment day resurrection account
doubt	scepticism unbelief sceptic
downfall	dethroned destruction
dowry	marriage portion
dread	dislike shrink terror
drugs	intoxicated drunkenness wine
drunk	intoxicated drunkenness wine gallons
dualism	body soul spirit
duty	obligations law charged
dying	death perish parting departs expired departed perishing
eager	keen fervour zest
earn	livelihood striving exert
economy	business occupations market
ecstasy	ecstatic wonder
education	learning knowledge teaching
effort	striving exert toil strive
ego	self soul passions lower individuality selfishness pride flesh
eid	festival feast
eliminate	uproot abolish killed expelled
embarrass	disgrace chagrin disgraced
embarrassed	abashed ashamed
embarrassment	shame abashed confusion ashamed
embryo	drop water created frame
emotion	feelings passion passions anger pain pleasure
emotional	emotions emotion stirred
emperor	sultan king sovereignty
employee	servants service
encounter	met vision presence
encourage	exhort incite
endeavor	endeavour endeavours
endless	unending everlasting perpetual
endure	perseverance bear swallow
engagement	espoused marriage
engrossed	absorbed
enlightenment	knowledge truth light purity illuminated enlightened illuminate insight
enough	sufficient content necessities
enslave	thraldom slave captive
entertainment	playing pleasures delights amusement pastime recreations
enthusiastic	enthusiasm fervour zest
entitlement	claim due pretensions
envious	envy jealousy envied
epistemology	knowledge perception cognisance
equality	rights same
escape	delivered free refuge
eschatology	next world judgment future life
esoteric	secret doctrine mysterious
essentials	necessities needs food clothing shelter
ethics	moral law limits ethical
etiquette	propriety usages customs
euphoria	ecstasy joy delight
evaluate	examine scrutiny reckoning account
evidence	prove proof certainty convictions
evolution	creation created stages planes progress
ex	former divorced
example	pattern instance
excess	limits indulgence indulged transgress
excuse	pretext
existential	existence purpose essence
expert	adept learned specialists adepts proficient
explore	wander wanderings stroll
extremism	extravagant
fable	parable allegory epologue
failure	loser ruin disappointed
faint	senseless fell unconscious
fake	hypocrisy deliberate imposture pretend pretends pseudo pretensions
fame	honour name approval ambition
famous	celebrated name honour
farmer	husbandmen farms
fashion	apparel adorning adorn fine clothes
fasting	abstinence hunger austerity
fate	doom allotted appointed counsel
favor	favour kindness benefactor
favorite	favourite
fear	dread terrors
fearless	fears lion
feast	viands dishes table guests
feminism	rights women
fertility	barren increase
fetus	drop water created frame
feud	strife quarrels hatred grudge
fiance	espoused bride
fidelity	chastity
flatter	cajole praise
flaunt	boast beauty clothes
fleeting	transitory slipping shadow moment
flirt	lascivious looks seduce pretends fondles
flourishing	happiness felicity perfection
flute	pipe
focus	concentrate concentrating fixity absorbed concentrates watch
foresight	foreseeing providing future
forest	wooded trees foliage wood dark
forever	eternal abide everlasting eternity perpetual
forgetful	forgets remembrance
forgive	forgiveness mercy merciful
forgiveness	forgive repentance mercy atoned
fortuneteller	astrologer charm
fragrance	perfumes scents musk perfume
fraud	pseudo pretensions pretend babblers imposture deceit
freedom	delivered free burden responsibility will
freewill	will power striving
friendship	friend intimacy
frightened	fear terror alarmed frighten
frivolous	trifles trifling vanities
frugal	austerity simple sufficient abstinence moderate
fruit	date morsel
frustration	chagrin disappointed disappointment failure
fulfillment	happiness perfection felicity
fun	amusement pastime pleasure playing delight
funeral	death parting farewell bier mortuary dead graves dirges
furious	wrath anger resentment angry
furnace	forge iron
gabriel	archangel
games	chess playing ball game races play
garbage	filth scavenger
gateway	doors window avenues
gems	jewels rubies emeralds
gender	women men feminine
generosity	charity beneficence alms kindness
generous	kindness benefactor beneficence charity
gentle	gently tenderness tenderly
genuine	sincerity sincere real
ghazali	ghazzali
ghost	spirit soul spirits dead
girlfriend	beloved woman lovers lover
glad	pleased delight rejoice
gloomy	melancholy depression dark despair sorrow mournful
gluttony	gorged repletion appetites lust
gnosis	knowledge knowers arifin
goal	aim end object purpose
godfearing	righteous pious fear
goodbye	farewell parting bidding
goodness	excellence good moral
goosebumps	stirred emotions moved
gorgeous	beauty beautiful
gossip	slandered idle words tongue
governance	government administration rule
grateful	thanks praise
gratification	satisfaction appetites
gratitude	thanks praise grateful ingratitude
greece	greeks grecian greek
greed	covetousness lust wealth possessions covetous lusts greedily love world
greedy	covetousness craving possessions greedily lusts lucre
greeting	salutation saluted
grieve	grief sorrow bewailed
grieving	grief sorrow dirges
groom	husband bride marriage
gross	nauseous repulsive disgraceful
grouchy	humour tempers
growth	progress stages perfection
guidance	guide guides path
guilt	sin sins confessed bewailed remorse shame regret
guilty	sin sins confessed bewailed
guitar	instruments
guru	guide guides spiritual sufi teachers pir director sheikh
gut	intuition intuitions impressions
hadith	hadis traditional sayings traditions tradition
hair	locks
hajj	pilgrimage mecca pilgrim pilgrims
halal	lawful
halfhearted	lukewarm
handsome	beauty beautiful
handwriting	writer letter pen written
hangover	soberness intoxicated morning
happy	happiness beatitude delight
haram	unlawful forbidden lawful
hardship	toil trouble hunger sorrow trials austerities pain
hardworking	diligence toil striving labour diligent strenuous
harm	injury injurious ruin destroy
harmful	pernicious injurious injury
harsh	harshness severity
hate	hatred envy
heal	cure recover recovers
healing	cure medicine remedy
heartbreak	separation pangs longing chagrin despair parting
hedonism	pleasures delights indulgence fleshly sensual
hellfire	hell fire flames
henpecked	servant wife
heresy	irreligious error pseudo blasphemy
heretic	irreligious error unbelief
hermit	seclusion retired solitude retirement secluded
hero	pattern saints
hidden	veil concealed unseen invisible
hide	concealed veil refuge
hierarchy	rank degree subordination planes
hijab	concealment secluded
hoard	collect treasures possessions
hoarding	possessions storehouse covetousness
hobby	pastime recreations amusements
holiday	festival feast
holiness	sanctity piety purity holy sacred
homecoming	return origin upper world
homemaker	house cook sweep wife
homesick	native land return origin longing
honest	truth sincere
honesty	sincerity sincere
honor	honour
hooked	attached clave fondly
horny	lust carnal fleshly lusts lascivious desires
horoscope	astrologer planets conjunction astrology constellation
horseback	horseman steed rider dismounted
hospital	sick sickness illness visited
household	house family
housewife	wife house
housework	cook wash dishes sweep floor
housing	dwelling lodging shelter
hubby	husband
hug	embraced touched
humanity	human race man kind
humiliation	shame laughingstock dethroned slap
humility	helplessness humble weak
hunch	intuition impressions
hurt	pain injury injurious
hygiene	washing
hymn	songs verses praise
hypocrite	hypocrisy pretend pretends
iblis	satan devil
ibrahim	abraham
identity	self individuality essence entity personality
idle	neglect careless waste
idolatry	worship stars sun moon
ignorant	ignorance error foolish
illegal	unlawful forbidden
illgotten	unlawful means livelihood
illness	sickness disease sick
illusion	veil deceitful shadow sorceress fantasy reflection
imagination	image images thought
imagine	conception conceived conceives image
imitate	echoing parrotlike repetition
immaterial	invisible indivisible unlocated
immortal	eternal everlasting unending endures
immortality	eternal everlasting unending endures eternity abide persisting future existence
impermanence	transitory perish slipping shadow
improve	progress perfection purify discipline
improvise	extemporising
impulse	passions appetites instincts
impulsive	impulse passion
income	livelihood revenue
incomprehensible	comprehension abstruse exceeds
indoctrinate	parents predisposition prejudice
indulge	indulgence indulgent
infatuation	love intensity fascinated lovers fondles
infertile	barren
infidelity	unchaste chastity
inheritance	property sixth half
ink	pen letters paper
innate	inherent implanted predisposition instincts
inner	inward within heart
innocence	purity pure predisposition
innovation	novelties
insane	madden melancholy
insatiable	unquenched unsatisfied thirst
insect	ant wasp
insignificant	contemptible weak trifles mean
insomnia	sleep ease
inspiration	fervour enthusiasm rekindles
instinct	instinctive instinctively
instrument	instruments pipe drum
integrity	sincerity genuineness
intelligence	intellect reason wisdom intelligences
intention	intend motive purpose
intercession	intercede
interdependence	connections relations independent
interpret	interpreting interpretation
intricate	intricacies complicated
introspection	self contemplation considers knowledge examination examine scrutiny reckoning
introvert	solitude retirement privacy
intuition	perception insight sixth inner eye
investment	traffic capital gain profit
irritate	temper upset anger resentment
islamic	moslem muhammadan islam
isolated	solitude retirement secluded alone
isolation	seclusion alone retired
jaded	dulled familiar repetition hard
jail	prison imprisonment
janitor	scavenger sweep
jealous	jealousy envy
jewelry	jewelled apparel gorgeous jewels rubies emeralds
jihad	warfare strive striving war campaign infidels
jinn	devils demonic spirits
job	occupation livelihood work
journal	reckoning account recording
journaling	reckoning account examine recording
journey	stages pilgrims travellers path
joy	delight happiness beatitude pleasure
judge	judgment balance account weighed
judgement	judgment account day
judgmental	uncharitable fault narrow shallow
karma	consequences punishment rewarded deeds character wrought reward balance
kid	child children
kids	children child boys
kindness	mercy beneficence tender love
labor	labour labours laboured
lament	mournful dirges sorrow
lawmaker	lawgiver laws
lazy	neglect careless sluggish lukewarm heedless
leader	king ruler captain
lecture	admonish rebuke
ledger	reckoning account roll recorded
legacy	name oblivion
legal	lawful law
levels	planes stages degree rank
levitate	fly air walk sea
liar	deceit guile deceitful pretends lie lying
libertine	livers wine limits
libido	lusts appetites desires sensual
lifespan	breaths allotted days years
lifetime	years days time
literalist	zahirites
location	located unlocated space
logic	reason rational argument
loneliness	seclusion alone lonely solitude
lonely	alone seclusion
loophole	pretext obligations ignore
lovesick	longing separation pangs
loyal	chastity faithful cleave
lucifer	satan devil
luck	fate destiny
luggage	loads provisions
luxury	abundance adorning gorgeous possessions
lying	deceit guile deceitful
lyrics	verses poetry lines
mad	anger angry wrath resentment temper
madness	madden melancholy
magic	sorceries sorcerer sorceress alchemy magicians charm miracles
magistrate	cadi
mahr	marriage portion
makeup	decks adorning veils
makkah	mecca
manipulate	guile deceit seduce
manners	propriety usages
mantra	exclamation exclamations phrases ejaculations repetition name recited rosary
market	bazaar
marketplace	market stage
martyr	slain path
martyrdom	slain
matchmaking	marry marriage seeing qualities
materialism	world worldly physicists earthly wealth possessions lucre
materialist	physicists physicist earthly
materialistic	worldly earthly worldling lucre
maternal	mother suckling tender
matrimony	marriage matrimonial
meaning	purpose end object aim existence
meaningless	vain wasted jest random purpose vanities
medicine	prescription cure regime doctor
meditate	contemplation recollection contemplate meditation concentrates
meditation	contemplation remembrance contemplate seclusion concentrates recollection
melody	harmony melodious music harmonious sounds song rhythm
memory	remembrance treasure chamber thought
mental	intellect reason thought soul
mentor	guide teachers director pir sheikh
merchant	merchandise market business
messenger	prophet prophets
metaphor	allegory figure image parable symbolised signify
metaphysical	unseen invisible spiritual
military	martial war soldiers campaign
mindful	watchful aware conscious
mindfulness	remembrance contemplation watch concentrates watchful recollection
minimalism	simple necessities sufficient
minimalist	austerity abstinence faqirs
misfortune	misery trouble loss sorrow
misogyny	women crooked
miss	longing separation pangs
misunderstand	mistake confound error
mock	laughingstock laughs contempt
moderation	limits proportion sufficient abstinence
modesty	abashed ashamed shame concealment
mohammed	muhammad prophet
mohammedan	muhammadan muhammadans
mom	mother
money	gold silver wealth sixpence
monk	seclusion austerity abstinence celibate faqirs solitude
monotheism	god creator lord
monster	hideous witch demonic
mood	temper state condition
moody	tempers humour variations mood
morality	moral law limits discipline ethical
morgue	mortuary
mortal	perishable transitory temporal perish
mortality	death perish perishable transitory temporal dust perishes
motivation	fervour zest enthusiasm
mourning	grief sorrow bewailed dirges mournful despair
mundane	everyday worldly earthly
murder	slain killed
music	harmonious sounds rhythm cadence ear
musician	minstrels singing girls
muslim	moslem mussalman muhammadans moslems
mystery	mysterious secrets secret
mystic	sufi sufis adept mystics
mysticism	sufism sufis mystics mystical
nag	scolded loquacious tongued
nearness	proximity nearer intimacy
negligent	remiss negligently neglect
nervous	dread trouble fear alarmed awestruck
neuroscience	brain nerve intellect
newlywed	bride marriage
nightclub	dancing music amusement
nightmare	dream terror dreams sleep terrors
nihilism	jest random perishable
nirvana	beatitude union absorbed lose themselves
nonbeliever	unbelievers unbeliever infidels infidel
nonexistence	annihilated oblivion non existence existent nothing
nostalgia	longing remind
nourish	nourishment nurture feeding
numb	dulled hard
obedience	subordination servants disobedience
obligation	duty duties rights binding
oblivious	heedless
obsession	absorbed engross fascinated intensity fixity
odor	odour
offspring	children increase
ogle	lascivious looks
ok	lawful permitted indifferent
omnipotent	almighty power
omniscient	wisdom knows knowledge sees everywhere observation
oneness	union deity
opportunity	chance
optimism	hope
optional	supererogatory
orchard	palm grove
outer	outward external
outfit	apparel clothing
overcome	conquer subdue master triumphed
overeating	gorged repletion indulged
overindulge	indulged indulgence gorged
overjoyed	ecstasy joy rejoice
overprotective	jealous strict secluded
overstep	transgress transgresses limits
overwhelm	swallow engross entangled
overwhelmed	weight heavily burden cares load
painful	pain pangs bitterness
pampering	adorning feeding
panic	terror alarmed confusion
pantheism	union deity truth incarnation descent
paradise	heaven beatitude next world happiness
paralyzed	paralysed
paranormal	unseen miracles sorceries
parent	parents father mother
parenting	parents child children family father mother
passionate	ardour intense earnestness
patience	swallow perseverance restrain patient patiently endurance
patriotic	martial ardour
peaceful	peace calm quiet
pebble	stones brilliantly coloured
pebbles	stones coloured
penance	punish punished scourge
performative	hypocrisy deliberate appear
permissible	lawful permitted
persevere	perseverance striving strive
persistence	perseverance striving
personality	character individuality qualities attributes
perspective	vision perception degrees
pests	vermin hornets scorpions
petty	trifles trifling sixpence morsel
philanthropy	alms charity
phoenix	capture hunter prize steed
phony	hypocrisy imposture deliberate
physical	bodily body visible flesh
physician	doctor doctors
physics	physicist phenomena elements laws
pig	swine
planning	plans ahead provisions
poem	poetry verses lines
pointless	jest random vanities trifles vain folly wasted
poison	poisons venom
politics	political government civil
polluted	befouled rust dirt
polygamy	wives
ponder	contemplation reflect consideration
poor	beggar hunger bankrupt
popularity	applause notoriety fame praises
porn	lascivious erotic looks
poser	hypocrisy adepts deliberate
possessive	jealous strict
potential	capacity capacities capable progress perfection planes
potiphar	zuleikha joseph
poverty	beggar hunger bankrupt
powerless	helplessness helpless weak
practice	discipline worship devotion
pray	worship remembrance devotion exclamations
prayer	worship devotion remembrance praise refuge
preacher	teachers divines
predestination	fate destiny decrees tablet
predict	foreshadowings astrologer future
preexistence	origin celestial upper world
preference	inclination prefer
premonition	foreshadowings intuitions dreams impressions
prestige	honour place rank
pretend	hypocrisy profess deliberate
pretty	beauty fair beautiful
prevail	predominates triumphed
pride	superior boasted claim notoriety
priest	divines theologians
privacy	retirement secrets private
procrastinate	delay lateness
procrastination	delay lateness sluggish heedless lukewarm
procreation	increase number children
promiscuous	unchaste lascivious
proof	test sincerity genuineness
prophecy	prophetic inspiration foreshadowings
propose	marry espoused marriage
protection	guardian shelter refuge
proud	boasted superior claim pride overweening boast
provider	support maintenance
psyche	soul spirit heart self
psychiatrist	doctor melancholy
psychic	intuitions window unseen sorceries miracles divining
psychology	self soul knowledge faculties
purgatory	pain weaned suffer
purification	purify purged purifies polishing
purpose	object aim existence business
qawwali	music singing sufis assembly
quarrel	scolded angry tempers
quench	unquenched thirst
quran	koran
rage	anger wrath resentment ferocious
ramadan	fast fasts fasted
rapture	ecstasy ecstatic beside himself
rationality	reason rational intellect
realm	world sphere kingdom
reaper	azrael angel death
recharge	renewed zest refreshment
recitation	recital reciting recited
reckoning	judgment account day
redemption	atoned repentance forgive
refine	purged purify crucible
refresh	refreshment renewed
regret	bitterness chagrin disgrace
reincarnation	restored recovering body annihilated
relationship	marriage wife husband
relationships	relations connections affection
relatives	related stock family
relax	ease calm quiet
remarry	marry again widow
remorse	bitterness bewailed chagrin
renunciation	abstinence turning aloof austerity faqirs disengaged
repent	conversion confessed bewailed
repentance	conversion confessed bewailed turning
reputation	notoriety fame praises applause honour name approval
research	inquiry study observation
resemblance	likeness affinity
resemble	likeness reflection reflected miniature
resent	resentment grudge
resentment	hatred jealousy envy
resist	restrain curbing subdue conquer forbear abstain
respect	honour disrespect value
responsibility	charged entrusted account administration
restaurant	table dishes guests host
restraint	curbing restrained abstinence limits restrain repression control
resurrection	judgment day next world future life
retreat	seclusion retired retirement solitude privacy
reunion	unites union friend
revelation	inspiration prophetic intuitions prophets
revenge	vengeance resentment grudge
reverence	awe majesty fear
rhyme	rhythm cadence poetry
rhythm	harmony music drums
rich	wealth treasures possessions abundance gold
ridicule	laughingstock contempt laughs
righteous	sanctity piety saints
rip	tearing clothes
risk	danger perilous stake chance
ritual	worship devotion exclamations exercises
rivalry	envy jealousy strife
romance	lovers lover love beloved affection
romantic	erotic beloved lover
rope	cord draws
rote	parrotlike repetition stereotyped
routine	habit morning evening
rude	disrespect harshness
rug	matting
ruler	king sultan sovereignty
sad	sorrow grief melancholy mournful despair
sadness	sorrow grief depression melancholy
safe	refuge fortress protection saved
safety	refuge protection fortress
sailor	captain ship
salary	wages livelihood
salvation	saved delivered beatitude happiness escape felicity
sama	music hearing sufis assembly
sanctimonious	sanctity claim superior pretensions
satisfy	content sufficient unsatisfied
scale	balance weighed
scare	frighten terror dread terrors
scary	terrors dread hideous
scent	perfumes smells
schedule	plans ahead
scholar	learned sages divines theologians doctors
science	knowledge reason medicine experiment
scientific	science sciences physicists laws
scientist	physicist astronomer sages philosophers
scream	shriek cry
scribe	recording angels writing
scripture	koran written law traditions
seawater	sea water thirst drinking
seclusion	secluded retirement solitude
secondhand	hearsay traditional blindly
secret	secrets private
secular	worldly world temporal earthly
security	refuge protection fortress
seduce	tempted tempting
seduction	seduce sorceress fondles
seductress	sorceress seduce
seeker	seeks pilgrim traveller
selfless	disinterested pure unmixed
sensory	senses sense bodily external
separation	parting
sex	lust carnal passion fleshly mating intercourse lusts desires
sexual	carnal lust fleshly passion
sexuality	lusts desires sensual
shade	shadow tree
shame	disgrace disgraced
sharia	law limits lawful
shave	shaved barber
sheltered	secluded concealment
shine	splendour brilliancy illuminated radiant lustrous
shocked	aghast
shopping	market merchandise
showoff	hypocrisy appear adepts approval
sick	illness sickness disease ill
siege	beleaguered fortress armies
sightseeing	stroll admiring foliage island
signature	handwriting
similarity	likeness affinity
sinful	unlawful sin forbidden sins evil transgress
singer	singing girls minstrels
skeptic	sceptic scepticism unbelief doubt doubtful deny unbeliever
skepticism	scepticism sceptic unbelief
skin	complexions
slander	slandered cannibal
slavery	thraldom slaves captive slave ransoming free
sleepless	slept nights night
smart	intellect reason wisdom intelligences
sober	soberness abstinence wine restrain
society	government political civil
soldier	army armies warfare
solitude	seclusion alone
sorry	repentance remorse regret repent
soulmate	beloved affinity union
souvenir	stones loads carry
spell	sorceries sorcerer sorceress
sperm	drop water created
spirituality	spiritual soul religion piety devotion religious
splendor	splendour
spoil	indulgent licence
spotless	unspotted pure clear
spouse	husbands marriage wife husband
squander	wasted slip lose
stare	looks eyes gaze
starve	hunger hungry perish
status	rank degree place honour
stench	odour filth
sterile	barren
stillness	still fixity silence
stingy	stint
stink	repulsive washing nauseous
story	anecdote parable related
strength	power powers
stress	trouble toil troublesome cares weight
struggle	warfare striving strive strife difficulty
stubborn	prejudice dogmatic hardens
stuck	stationary sluggish
student	disciple disciples learning teachers study
stupid	foolish fools folly fool
subconscious	depths consciousness unseen heart
subhanallah	holy exclamations
submission	obedience resigned
subtle	niceties shades delicately
succeed	attain attainment progress
success	attain attainment progress
suffering	misery pain sorrow pangs torment wretchedness
sugarcane	sugar canes
suicide	despair hope mercy
sunlight	sun rays midday illuminated
sunnah	traditional sayings tradition
sunset	sun
superficial	outward external shallow
superhuman	angelic angels angel
supernatural	unseen miracles sorceries invisible spiritual
superpowers	miracles fly walk sea
superstition	charm astrology astrologer
suppress	uproot abolish restrain swallow
surrender	resigned sacrifice will
surveillance	observation observes watch
survive	endures retains remain
swoon	senseless unconscious fell
symbol	symbolised signify
takbir	great exclamation
talkative	loquacious
tasbih	rosary
taste	relish
tasty	delicious deliciousness
tax	revenue collector
taxman	revenue collector
teacher	director sheikh instruction
tears	wept weeps sorrow
telekinesis	will power bodies move
telepathy	intuitions will impressions
temperament	temper nature character qualities disposition
temperance	abstinence equilibrium moderate
temporary	transitory temporal moment
temptation	lust seduce passions satan desire tempted tempting lusts
temptress	sorceress seduce witch
terrified	terror awestruck alarmed fear
thankful	grateful
theodicy	mercy justice disease hunger perish
theology	theologians doctrine
therapist	physician director counsel doctor prescription cure
therapy	cure prescription regime remedy medicine
thinking	thought reason contemplation
thoughtless	heedless carelessly
tiny	miniature drop little
tipsy	intoxicated drunkenness
tired	weary exhaustion
tolerance	understanding charity bear patiently
tolerate	restrain bear
torment	pangs misery bitterness punishment
tourist	passengers stroll wander island
tournament	match archers prize
toxic	embittered pernicious contaminated
toy	ball playing child
trade	merchandise business market traffic barter
traits	qualities disposition character
trance	ecstasy ecstatic senseless
tranquility	calm quiet peace
transactional	reward hope fear punishment disinterested
transcendence	transcends greatness beyond ecstasy beside
transform	transmutes change conversion alchemy
transformation	alchemy change transmutes conversion
trap	entangled captive thraldom
trapped	imprisonment prison
travel	journey traveller pilgrim stage travellers voyages pilgrims
treatment	cure remedy medicine
trip	journey pilgrimage stage
trivial	frivolous light
troublemaker	mischief devils stirring
trunk	elephant tusk
trust	faith refuge confidence
tune	music melodious harmony
tyrant	tyranny
ugly	misshapen defect
ulterior	selfish motive
ultimate	highest summit final supreme
unconditional	disinterested pure
unfaithful	deceitful sorceress enemies unchaste chastity
unhappiness	misery sorrow grief
unhappy	misery sorrow grief wretchedness miserable
unhealthy	injurious healthy disease unwholesome
unity	union
universal	whole creation
universe	creation world heavens
unmarried	single celibate
unobserved	observes observation sees everywhere
unsure	doubt doubtful mystery
unwind	relaxation leisure
upbringing	parents child born predisposition
upset	vexed disturbed annoyance
urge	lust desire appetite passion instincts impulse lusts appetites
useless	vain folly
vanity	vanities applause notoriety adorning pride boast satisfaction
vice	sins baser qualities lower
vigilance	watch watchful strict
violence	fighting smiting harshness severity strike wound
virgin	married previously
virtue	qualities angelic good deeds
virtuous	virtue chastity righteous pious
vulnerable	weak helpless helplessness
wager	benefit doubt chance stake
warped	distorted crooked misshapen
waste	wasted idle lose
watchmaker	writer letter pen maker
wealthy	rich wealth abundance possessions treasures
wedding	marriage feast bride drums
weird	grotesque marvels mysterious
wellbeing	welfare happiness ease felicity health
wellness	health equilibrium
whip	scourge
whirling	dancing dance ecstasy
wholehearted	whole sincere sincerity
wicked	evil baser demonic
widower	wife died marry again
wife	marriage husbands
willpower	will power discipline perseverance restrain control
witchcraft	sorceries sorceress witch sorcerer
withdrawal	pangs unsatisfied craving weaned separation
withdrawn	aloof seclusion retired
wizard	sorcerer sorceries
worldliness	world worldly vanities earthly
worry	dread trouble cares fear alarmed disturbed
worthless	contemptible value weak
wrongdoing	sin sins transgress evil transgression disobedience
yearn	longing craving
yearning	longing desire
yolo	life moment breaths
zeal	strenuous fervour zest
zodiac	planets conjunction stars astrologer constellation astrology moon
zoroastrian	fire worshippers
`;

/** The thesaurus's entries: a reader's word and the book's words it stands for. */
export function parseThesaurus(text: string): Array<[string, string[]]> {
  const entries: Array<[string, string[]]> = [];
  for (const line of text.split('\n')) {
    const [word, bookWords] = line.split('\t');
    if (word && bookWords) entries.push([word.trim(), bookWords.trim().split(/\s+/)]);
  }
  return entries;
}

const THESAURUS_HASH = createHash('sha256').update(READER_THESAURUS).digest('hex').slice(0, 8);

/** What a model's version says of its thesaurus: its weight and its text's hash (empty without one). */
export function glossaryVersion(weight: number): string {
  return weight > 0 ? `:thesaurus-${weight}-${THESAURUS_HASH}` : '';
}
